# refused: dunder-attribute
from abc import ABC, abstractmethod


class Shape(ABC):
    @abstractmethod
    def area(self):
        ...

    @abstractmethod
    def name(self):
        ...


class Half(Shape):
    def area(self):
        return 1


def run():
    return [sorted(Shape.__abstractmethods__), sorted(Half.__abstractmethods__)]
