def transfer(sender, recipient, /, amount, *, memo="", fee=0):
    return [sender, recipient, amount, memo, fee]


def attempt(fn):
    try:
        return fn()
    except TypeError as e:
        return ["TypeError", str(e)]


def run():
    return [
        transfer("a", "b", 5),
        transfer("a", "b", amount=5, fee=1),
        transfer("a", "b", 5, memo="hi"),
        attempt(lambda: transfer("a", recipient="b", amount=5)),
        attempt(lambda: transfer("a", "b", 5, "memo")),
        attempt(lambda: transfer("a", "b")),
        attempt(lambda: transfer("a", "b", 5, colour=1)),
        attempt(lambda: transfer("a", "b", 5, amount=6)),
    ]
