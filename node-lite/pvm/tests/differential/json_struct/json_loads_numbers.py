import json


def run():
    vals = json.loads('[0, -0, 12, -7, 1e3, 1.5, -2.25E-2, 123456789012345678901234567890, 1E400, -0.0]')
    return [
        [type(v).__name__ for v in vals],
        [repr(v) for v in vals],
        repr(json.loads("3.0")),
        json.loads("10"),
        repr(json.loads("1.0", parse_float=lambda s: "F" + s)),
        json.loads("1.0", parse_float=str),
        json.loads("42", parse_int=lambda s: s + "!"),
        repr(json.loads("7", parse_int=float)),
        json.loads('{"a": 1}', parse_constant=str),
        [repr(x) for x in json.loads("[NaN, Infinity, -Infinity]")],
        json.loads("[NaN]", parse_constant=lambda s: "const:" + s),
    ]
