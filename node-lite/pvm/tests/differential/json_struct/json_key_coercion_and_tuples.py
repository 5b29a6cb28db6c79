import json


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    d = {1: "a", 2: "b", True: "t", None: "n", 1.5: "f"}
    s = json.dumps(d)
    back = json.loads(s)
    t = json.dumps({"t": (1, 2), "n": [(3, (4,))]})
    return [
        s, back, json.dumps({"a": 1, 2: 2}), json.dumps({False: 0}),
        t, json.loads(t),
        attempt(lambda: json.dumps({(1, 2): "x"})),
        json.dumps({(1, 2): "x", "k": 1}, skipkeys=True),
        attempt(lambda: json.dumps({1: "a", "b": 2}, sort_keys=True)),
        json.loads(json.dumps({"1": "x", 1: "y"})),
    ]
