def classify(value):
    match value:
        case 0:
            return "zero"
        case -1:
            return "minus one"
        case "yes" | "y":
            return "affirmative"
        case b"raw":
            return "bytes literal"
        case "":
            return "empty string"
        case 1_000:
            return "thousand"
        case _:
            return "other"


def run():
    return [classify(v) for v in [0, -1, "yes", "y", b"raw", "", 1000, "raw", None, 2]]
