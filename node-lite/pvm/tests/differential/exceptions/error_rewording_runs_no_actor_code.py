# The PVM rewords some builtin errors as CPython does; it must not call the actor's own
# __index__ or __str__ one more time while it looks at them.
calls = []


class BadIndex:
    def __index__(self):
        calls.append("index")
        raise TypeError("no index here")


class Loud(ValueError):
    def __str__(self):
        calls.append("str")
        return "loud"


def key(item):
    raise Loud()


def run():
    out = []
    try:
        "abc"[BadIndex()]
    except TypeError as e:
        out.append(["TypeError", len(calls)])
    try:
        min([1, 2], key=key)
    except ValueError as e:
        out.append([type(e).__name__, len(calls)])
    try:
        [1, 2][BadIndex()]
    except TypeError as e:
        out.append(["TypeError", len(calls)])
    out.append(calls)
    return out
