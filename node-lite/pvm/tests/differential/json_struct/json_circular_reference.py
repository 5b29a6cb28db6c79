import json


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    a = [1]
    a.append(a)
    d = {}
    d["self"] = d
    shared = [1, 2]
    fine = {"x": shared, "y": shared}
    return [
        attempt(lambda: json.dumps(a)),
        attempt(lambda: json.dumps(d)),
        attempt(lambda: json.dumps(fine)),
        attempt(lambda: json.dumps({"k": [d]})),
    ]
