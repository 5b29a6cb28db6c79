class T:
    def __init__(self, v):
        self.v = v
    def __str__(self):
        return f"T<{self.v}>"
    def __repr__(self):
        return f"T({self.v!r})"

def run():
    t = T("x")
    return [str(t), repr(t), f"{t}", f"{t!r}", str([t]), "%s %r" % (t, t)]
