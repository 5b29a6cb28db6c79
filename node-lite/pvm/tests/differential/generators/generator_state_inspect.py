# refused: import-not-allowed
import inspect


def gen():
    yield 1
    yield 2


def run():
    g = gen()
    states = [inspect.getgeneratorstate(g)]
    next(g)
    states.append(inspect.getgeneratorstate(g))
    list(g)
    states.append(inspect.getgeneratorstate(g))
    g2 = gen()
    g2.close()
    states.append(inspect.getgeneratorstate(g2))
    return [states, g.__name__, inspect.isgeneratorfunction(gen),
            inspect.isgenerator(g), inspect.isgenerator([])]
