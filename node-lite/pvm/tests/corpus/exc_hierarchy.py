def run():
    checks = [
        issubclass(ZeroDivisionError, ArithmeticError),
        issubclass(KeyError, LookupError),
        issubclass(StopIteration, Exception),
        issubclass(KeyboardInterrupt, Exception),
        issubclass(RecursionError, RuntimeError),
        issubclass(NotImplementedError, RuntimeError),
    ]
    return checks
