# refused: dunder-attribute
from typing import Generic, TypeVar

T = TypeVar("T")


class Stack(Generic[T]):
    pass


class IntStack(Stack[int]):
    pass


def run():
    return [Stack[int].__origin__ is Stack, repr(Stack[int].__args__), IntStack.__orig_bases__ == (Stack[int],),
            repr(Stack.__parameters__)]
