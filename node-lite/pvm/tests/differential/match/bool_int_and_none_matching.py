def literal(value):
    match value:
        case True:
            return "True literal"
        case False:
            return "False literal"
        case None:
            return "None literal"
        case 1:
            return "int 1"
        case 0:
            return "int 0"
        case _:
            return "other"


def int_first(value):
    match value:
        case 1:
            return "matched 1"
        case 0:
            return "matched 0"
        case True:
            return "matched True"
        case _:
            return "other"


def run():
    return [
        [literal(v) for v in [True, False, None, 1, 0, 1.0, 0.0, "", []]],
        [int_first(v) for v in [True, False, 1, 1.0, 2]],
    ]
