from decimal import Decimal


class Money(Decimal):
    pass


class Takes:
    def __radd__(self, other):
        return "radd"

    def __rmul__(self, other):
        return "rmul"


def run():
    d = Decimal(1)
    out = []
    for expr in (lambda: d + 1.5, lambda: 1.5 + d, lambda: d - "a", lambda: d * [1], lambda: d * "ab",
                 lambda: d / 1.5, lambda: 1.5 / d, lambda: d // 1.5, lambda: d % 1.5, lambda: divmod(d, 1.5),
                 lambda: divmod(1.5, d), lambda: d ** 1.5, lambda: 1.5 ** d, lambda: pow(d, 1.5),
                 lambda: d + None, lambda: d + (1,), lambda: [1] + d, lambda: (1,) + d, lambda: d + {},
                 lambda: Money(1) + 1.5, lambda: 1.5 - Money(1), lambda: d + Takes(), lambda: d * Takes(),
                 lambda: "a" + d, lambda: b"a" + d, lambda: bytearray(b"a") + d, lambda: [1] * d, lambda: "ab" * Money(2), lambda: (1,) % d,
                 lambda: d + 1, lambda: 2 * d, lambda: d ** 2, lambda: pow(d, 2, 5)):
        try:
            out.append(repr(expr()))
        except TypeError as e:
            out.append("TypeError: " + str(e))
    return out
