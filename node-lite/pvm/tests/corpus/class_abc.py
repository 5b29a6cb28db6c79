from abc import ABC, abstractmethod

class Shape(ABC):
    @abstractmethod
    def area(self):
        ...

class Sq(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s

def run():
    try:
        Shape()
        err = None
    except TypeError:
        err = "TypeError"
    return [Sq(3).area(), err, isinstance(Sq(1), Shape)]
