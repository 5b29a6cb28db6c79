# CPython raises a format string's error at the field it is in, after rendering the fields
# before it: their __format__ calls happen, and their own errors come first.
class Loud:
    def __init__(self, seen):
        self.seen = seen

    def __format__(self, spec):
        self.seen.append(spec)
        return "L"


def attempt(f):
    try:
        return f()
    except (ValueError, IndexError, KeyError) as e:
        return [type(e).__name__, str(e)]


def run():
    seen = []
    loud = Loud(seen)
    return [
        attempt(lambda: "{0:a} {0:b} {!x}".format(loud)),
        list(seen),
        attempt(lambda: "{0[5]} {".format([1])),
        attempt(lambda: "{k} {0} }".format(1)),
        attempt(lambda: "{0:{1}} {2}".format(loud, "z")),
        list(seen),
        attempt(lambda: "{x}".format_map({"x": 1})),
        attempt(lambda: "{0}".format_map({"x": 1})),
        attempt(lambda: "{:{}}".format("a")),
        "{0:>{1}}|{{}}".format("a", 3),
    ]
