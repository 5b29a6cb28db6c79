def run():
    union = int | str
    return [type(union).__name__, repr(type(union)), repr(type(None | bytes))]
