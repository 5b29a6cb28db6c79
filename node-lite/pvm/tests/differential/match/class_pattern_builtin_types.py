def typed(value):
    match value:
        case bool(b):
            return ["bool", b]
        case int(n) if n < 0:
            return ["negative int", n]
        case int(n):
            return ["int", n]
        case float(f):
            return ["float", repr(f)]
        case str(s) if s.isdigit():
            return ["numeric str", int(s)]
        case str(s):
            return ["str", s.upper()]
        case list([x, *_]):
            return ["non-empty list", x]
        case tuple((a, b)):
            return ["pair tuple", a, b]
        case dict({"k": v}):
            return ["dict with k", v]
        case bytes(data):
            return ["bytes", data]
        case _:
            return ["other", type(value).__name__]


def run():
    values = [True, -3, 7, 2.5, "42", "hi", [9, 8], [], (1, 2), (1, 2, 3),
              {"k": 1, "j": 2}, b"\x00", None]
    return [typed(v) for v in values]
