class Grid:
    def __init__(self, w, h):
        self.w = w
        self.h = h
        self.cells = {}

    def __getitem__(self, key):
        x, y = key
        if not (0 <= x < self.w and 0 <= y < self.h):
            raise IndexError(f"cell {key} out of range")
        return self.cells.get(key, ".")

    def __setitem__(self, key, value):
        self.cells[key] = value

    def __delitem__(self, key):
        del self.cells[key]

    def __contains__(self, value):
        return value in self.cells.values()


def run():
    g = Grid(3, 2)
    g[0, 0] = "X"
    g[2, 1] = "O"
    out = [g[0, 0], g[1, 1], g[2, 1], "X" in g, "Z" in g, "O" not in g]
    del g[0, 0]
    out.append(g[0, 0])
    try:
        g[5, 5]
    except IndexError as e:
        out.append(str(e))
    try:
        del g[1, 1]
    except KeyError as e:
        out.append(repr(e))
    return out
