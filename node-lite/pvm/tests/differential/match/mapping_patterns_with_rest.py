def inspect_msg(msg):
    match msg:
        case {"type": "ping"}:
            return ["ping", len(msg)]
        case {"type": "data", "payload": payload, **rest}:
            return ["data", payload, rest]
        case {"type": kind, **rest} if not rest:
            return ["bare", kind]
        case {}:
            return ["some mapping", sorted(msg)]
        case _:
            return ["not a mapping"]


def run():
    return [
        inspect_msg({"type": "ping"}),
        inspect_msg({"type": "ping", "extra": 1}),
        inspect_msg({"type": "data", "payload": [1], "seq": 4, "ttl": 9}),
        inspect_msg({"type": "data", "payload": None}),
        inspect_msg({"type": "other"}),
        inspect_msg({"type": "other", "x": 1}),
        inspect_msg({}),
        inspect_msg([("type", "ping")]),
        inspect_msg({1: "int key"}),
    ]
