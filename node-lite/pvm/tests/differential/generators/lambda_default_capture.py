def run():
    rate = 2
    fee = lambda amount, r=rate: amount * r
    rate = 100
    fee_late = lambda amount: amount * rate
    handlers = {}
    for op in ["add", "sub", "mul"]:
        handlers[op] = lambda a, b, op=op: {"add": a + b, "sub": a - b, "mul": a * b}[op]
    shared = lambda item, acc=[]: (acc.append(item), list(acc))[1]
    first = shared(1)
    second = shared(2)
    return [fee(5), fee_late(5), {k: f(6, 3) for k, f in handlers.items()}, first, second,
            (lambda *a, **k: [list(a), k])(1, 2, x=3), (lambda: "no args")()]
