def parse(token):
    match token:
        case [("+" | "-") as sign, int() as n]:
            return ["signed", sign, n]
        case [int() as a, *rest] as whole:
            return ["list", a, rest, len(whole)]
        case {"id": (int() | str()) as ident} as msg:
            return ["message", ident, len(msg)]
        case (str() as s) if s:
            return ["word", s]
        case _ as anything:
            return ["fallback", repr(anything)]


def run():
    return [parse(["+", 4]), parse(("-", 2)), parse([1, 2, 3]), parse({"id": "x7", "v": 1}),
            parse({"id": 3}), parse({"id": 2.0}), parse("hello"), parse(""), parse(None)]
