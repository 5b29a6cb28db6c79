def run():
    matrix = [[1, 2, 3], [4, 5, 6]]
    transposed = [[row[i] for row in matrix] for i in range(3)]
    flat = [x for row in matrix for x in row]
    flat_filtered = [x for row in matrix if sum(row) > 6 for x in row if x % 2]
    pairs = [(a, b) for a in range(3) for b in range(a)]
    grid = {(r, c): r * 3 + c for r in range(2) for c in range(2)}
    nested_dict = {name: {k: v * 2 for k, v in d.items()}
                   for name, d in {"a": {"x": 1}, "b": {"y": 2, "z": 3}}.items()}
    unique = sorted({c for word in ["abc", "bcd"] for c in word})
    return [transposed, flat, flat_filtered, [list(p) for p in pairs],
            sorted([list(k), v] for k, v in grid.items()), nested_dict, unique]
