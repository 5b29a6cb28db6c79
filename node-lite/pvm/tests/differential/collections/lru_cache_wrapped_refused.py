# refused: dunder-attribute
from functools import lru_cache


@lru_cache(maxsize=2)
def sq(n):
    return n * n


def run():
    return [sq.__wrapped__(9), sq.cache_info().currsize]
