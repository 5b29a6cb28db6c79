import math


class Token:
    symbol = "TKN"


def fee(amount, rate=1):
    return amount * rate


def attempt(fn):
    try:
        fn()
        return None
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    count = 7
    missing = None
    return [
        attempt(lambda: 1 + "a"),
        attempt(lambda: [1] + (2,)),
        attempt(lambda: fee(1, 2, 3)),
        attempt(lambda: count[0]),
        attempt(lambda: missing[0]),
        attempt(lambda: {1, 2}.add({"k": 1})),
        attempt(lambda: Token.decimals),
        attempt(lambda: math.tau_half),
        attempt(lambda: [].push(4)),
        attempt(lambda: 7 % 0),
        attempt(lambda: 1 / 0),
        attempt(lambda: 2.5 / 0.0),
        attempt(lambda: divmod(10, 0)),
        attempt(lambda: float(10 ** 400)),
        attempt(lambda: int(float("inf"))),
        attempt(lambda: int(float("nan"))),
    ]
