from abc import ABC, ABCMeta, abstractmethod


class Store(ABC):
    @property
    @abstractmethod
    def capacity(self):
        ...

    @classmethod
    @abstractmethod
    def create(cls):
        ...


class Box(Store):
    @property
    def capacity(self):
        return 10

    @classmethod
    def create(cls):
        return cls()


class Sized(metaclass=ABCMeta):
    pass


def run():
    out = []
    try:
        Store()
    except TypeError as e:
        out.append(str(e))
    b = Box.create()
    out.append(b.capacity)
    out.append(isinstance(b, Store))
    out.append(isinstance(Box(), Sized))
    out.append(type(Store).__name__)
    out.append(isinstance(Store.capacity, property))
    return out
