def bucket(x):
    match x:
        case 0:
            return "zero"
        case -1 | -2:
            return "small negative"
        case 1.5:
            return "one and a half"
        case 2:
            return "two"
        case "2":
            return "string two"
        case _:
            return "other"


def run():
    values = [0, 0.0, -0.0, -1, -2.0, 1.5, 2, 2.0, "2", 3]
    return [[repr(v), bucket(v)] for v in values]
