def convert(value):
    try:
        return ["ok", int(value)]
    except (ValueError, TypeError) as e:
        return [type(e).__name__, str(e)]


BAD_INPUT = (KeyError, IndexError)


def fetch(container, key):
    try:
        return container[key]
    except BAD_INPUT as e:
        return "missing:" + type(e).__name__


def run():
    return [
        convert("12"),
        convert("twelve"),
        convert(None),
        convert([1]),
        fetch({"a": 1}, "a"),
        fetch({"a": 1}, "b"),
        fetch([1, 2], 5),
    ]
