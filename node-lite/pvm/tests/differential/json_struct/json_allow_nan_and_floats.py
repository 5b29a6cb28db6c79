import json


def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    inf = float("inf")
    nan = float("nan")
    return [
        json.dumps([inf, -inf, nan]),
        attempt(lambda: json.dumps([inf], allow_nan=False)),
        attempt(lambda: json.dumps({"v": nan}, allow_nan=False)),
        json.dumps([0.1, 1.0, -0.0, 1e16, 1e-7, 3.141592653589793, 2.5e-300, 1e22, 100.0]),
        json.dumps(0.1 + 0.2),
        json.dumps({"f": 1 / 3}),
        json.dumps(10 ** 30),
        json.dumps(-(2 ** 63)),
        json.dumps([True, False, None]),
        json.dumps(1.5e300 * 1e10),
    ]
