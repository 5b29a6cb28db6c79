import functools

@functools.total_ordering
class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split("."))
    def __eq__(self, o):
        return self.parts == o.parts
    def __lt__(self, o):
        return self.parts < o.parts
    def __repr__(self):
        return ".".join(map(str, self.parts))

def run():
    vs = [Version(s) for s in ["1.10.0", "1.2.3", "1.2.10", "0.9"]]
    return [repr(sorted(vs)), Version("1.0") >= Version("0.9"), max(vs).parts]
