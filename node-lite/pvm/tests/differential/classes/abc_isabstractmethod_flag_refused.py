# refused: dunder-attribute
from abc import ABC, abstractmethod


class Store(ABC):
    @property
    @abstractmethod
    def capacity(self):
        ...

    def describe(self):
        return "store"


def run():
    return [Store.capacity.__isabstractmethod__, getattr(Store.describe, "__isabstractmethod__", False)]
