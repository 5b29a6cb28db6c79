# Nested arithmetic: what runs, and in which order, when an operator's right operand is
# another operator (`a + b * c`, `x += a * b`): operands, operators, errors and the release
# of temporaries (finalizers), as CPython does them.
order = []


class T:
    def __init__(self, n):
        self.n = n

    def __add__(self, other):
        order.append(("add", self.n))
        return T(self.n + 100)

    def __radd__(self, other):
        order.append(("radd", self.n))
        return T(self.n + 200)

    def __mul__(self, other):
        order.append(("mul", self.n))
        if self.n == 0:
            raise ValueError("zero")
        return T(self.n * 10)

    def __mod__(self, other):
        order.append(("mod", self.n))
        return T(self.n % 7)

    def __del__(self):
        order.append(("del", self.n))


def make(n):
    order.append(("make", n))
    return T(n)


def run():
    out = []
    make(1) + make(2) * make(3)
    out.append(list(order))
    order.clear()
    try:
        make(1) + make(0) * make(3)
    except ValueError as e:
        order.append(("caught", str(e)))
    out.append(list(order))
    order.clear()
    x = make(4)
    x += make(5) * make(6)
    out.append([list(order), x.n])
    order.clear()
    del x
    out.append(list(order))
    order.clear()
    y = 5 + make(7) % make(8)
    out.append([list(order), y.n])
    order.clear()
    del y
    # Plain numbers and sequences, nested both ways.
    total = 0
    for i in range(10):
        total += i * 2
        total -= i % 3
    out.append(total)
    out.append([2 + 3 * 4, 2 * 3 + 4, 2 ** 3 ** 2, 10 - 2 - 3, 10 - (2 - 3), 7 % 4 * 3])
    out.append(["ab" + "cd" * 2, [1] + [2] * 3, (1,) * 2 + (3,), "%s=%d" % ("a", 1)])
    s = "x"
    s += "y" * 3
    out.append(s)
    errors = []
    for expression in [lambda: 1 + "a" * 2.5, lambda: 1 + 2 * "b", lambda: [1] + 2 * 3, lambda: 5 % (3 - 3)]:
        try:
            errors.append(expression())
        except (TypeError, ZeroDivisionError) as e:
            errors.append([type(e).__name__, str(e)])
    out.append(errors)
    return out
