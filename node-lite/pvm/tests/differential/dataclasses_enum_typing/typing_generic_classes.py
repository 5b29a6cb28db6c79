from typing import Generic, Optional, TypeVar, get_args, get_origin

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class Stack(Generic[T]):
    def __init__(self) -> None:
        self.items: list[T] = []

    def push(self, item: T) -> None:
        self.items.append(item)

    def pop(self) -> Optional[T]:
        return self.items.pop() if self.items else None


class Pair(Generic[K, V]):
    def __init__(self, key: K, value: V) -> None:
        self.key = key
        self.value = value


class IntStack(Stack[int]):
    pass


def run():
    s: Stack[int] = Stack[int]()
    s.push(1)
    s.push(2)
    p = Pair[str, int]("a", 1)
    return [
        s.pop(),
        s.pop(),
        s.pop(),
        type(s).__name__,
        get_origin(Stack[int]) is Stack,
        repr(get_args(Pair[str, list[int]])),
        repr(T),
        T.__name__,
        type(p).__name__,
        [p.key, p.value],
        [c.__name__ for c in IntStack.mro()],
        issubclass(IntStack, Stack),
        Stack[int] == Stack[int],
        Stack[int] == Stack[str],
        type(IntStack()).__name__,
    ]
