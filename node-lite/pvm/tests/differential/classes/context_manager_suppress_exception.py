class Suppress:
    def __init__(self, *types):
        self.types = types
        self.seen = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, self.types):
            self.seen = (exc_type.__name__, str(exc), tb is not None)
            return True
        return None


def run():
    out = []
    s = Suppress(KeyError, ZeroDivisionError)
    with s:
        1 // 0
        out.append("not reached")
    out.append(list(s.seen))
    s2 = Suppress(KeyError)
    try:
        with s2:
            raise ValueError("passes through")
    except ValueError as e:
        out.append(str(e))
    out.append(s2.seen)
    def f():
        with Suppress(LookupError):
            return {}["k"]
        return "after with"
    out.append(f())
    return out
