import functools


@functools.total_ordering
class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts

    def __repr__(self):
        return "v" + ".".join(map(str, self.parts))


def run():
    vs = [Version(s) for s in ["1.10", "1.2", "0.9.9", "1.2.1", "1.2"]]
    return [
        repr(sorted(vs)),
        repr(sorted(vs, reverse=True)),
        repr(max(vs)),
        repr(min(vs)),
        Version("1.2") <= Version("1.2"),
        Version("2.0") > Version("1.99"),
        Version("1.0") >= Version("1.1"),
        Version("1.0") != Version("1.0.0"),
    ]
