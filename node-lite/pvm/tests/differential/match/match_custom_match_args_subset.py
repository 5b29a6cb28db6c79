class Event:
    __match_args__ = ("kind",)

    def __init__(self, kind, payload=None):
        self.kind = kind
        self.payload = payload

    @property
    def size(self):
        return len(self.payload or [])


def route(e):
    match e:
        case Event("tick"):
            return "tick"
        case Event("data", payload=[_, *_] as p, size=n) if n > 2:
            return f"large data {p[0]}.. ({n})"
        case Event("data", size=n):
            return f"data size {n}"
        case Event(kind):
            return "other " + kind
        case _:
            return "not event"


class Sub(Event):
    __match_args__ = ("kind", "payload")


def run():
    out = [route(Event("tick")), route(Event("data", [1, 2, 3])),
           route(Event("data", [1])), route(Event("data")), route(Event("close"))]
    match Sub("x", [4]):
        case Sub("x", [v]):
            out.append(["sub positional", v])
    try:
        match Sub("x", [4]):
            case Event("x", [v]):
                out.append("parent pattern uses parent __match_args__?")
    except TypeError as e:
        out.append(["TypeError", str(e)])
    match Sub("y"):
        case Event(k):
            out.append(["sub as event", k])
    return out
