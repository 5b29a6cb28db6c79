class Point:
    def __init__(self, x, y=0):
        self.x = x
        self.y = y

    def __repr__(self):
        return f"Point({self.x!r}, {self.y!r})"


class Label:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return f"<{self.text}>"

    def __repr__(self):
        return f"Label({self.text!r})"


def run():
    p = Point(3)
    q = Point("a", [1, 2])
    lab = Label("hi")
    return [
        repr(p),
        str(p),
        repr(q),
        str(lab),
        repr(lab),
        f"{lab}",
        f"{lab!r}",
        repr([p, lab]),
        str([lab]),
        "%s and %r" % (lab, lab),
    ]
