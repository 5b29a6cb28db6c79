from functools import lru_cache, cache


@lru_cache(maxsize=2)
def sq(n):
    return n * n


@cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@lru_cache(maxsize=None, typed=True)
def ident(x):
    return repr(x)


def run():
    out = [sq(2), sq(3), sq(2), sq(4), sq(3)]
    info = sq.cache_info()
    out.append([info.hits, info.misses, info.maxsize, info.currsize])
    out.append(fib(60))
    fi = fib.cache_info()
    out.append([fi.hits, fi.misses, fi.maxsize, fi.currsize])
    ident(1)
    ident(1.0)
    ident(True)
    out.append(ident.cache_info().currsize)
    sq.cache_clear()
    out.append(list(sq.cache_info()))
    out.append([sq(9), sq(9), list(sq.cache_info())])
    return out
