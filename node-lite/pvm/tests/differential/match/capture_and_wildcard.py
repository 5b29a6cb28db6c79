def describe(value):
    match value:
        case 0:
            return ["zero", None]
        case other:
            return ["captured", other]


def wildcard(value):
    match value:
        case 1:
            return "one"
        case _:
            return "anything"


def run():
    match "binding leaks":
        case text:
            pass
    return [describe(0), describe("x"), describe([1, 2]), wildcard(1), wildcard(None), text]
