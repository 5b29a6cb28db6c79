import json


class Money:
    def __init__(self, cents):
        self.cents = cents


class AppEncoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, Money):
            return {"cents": o.cents}
        if isinstance(o, frozenset):
            return sorted(o)
        return super().default(o)


def run():
    enc = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
    chunks = list(json.JSONEncoder().iterencode({"a": [1, 2]}))
    out = [
        json.dumps({"m": Money(150), "f": frozenset([3, 1])}, cls=AppEncoder),
        enc.encode({"b": 1, "a": [None]}),
        "".join(chunks),
        json.dumps([Money(1)], cls=AppEncoder, indent=1),
    ]
    try:
        json.dumps(object(), cls=AppEncoder)
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    dec = json.JSONDecoder()
    out.append(list(dec.raw_decode('{"a": 1} trailing')))
    out.append(list(dec.raw_decode('[1, 2]   ')))
    return out
