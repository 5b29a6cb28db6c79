class Animal:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"{type(self).__name__}(name={self.name!r})"

    def speak(self):
        return "..."


class Dog(Animal):
    def __init__(self, name, breed):
        super().__init__(name)
        self.breed = breed

    def __repr__(self):
        return super().__repr__()[:-1] + f", breed={self.breed!r})"

    def speak(self):
        return "Woof " + super().speak()


class Puppy(Dog):
    def speak(self):
        return super().speak().lower()


def run():
    d = Dog("rex", "lab")
    p = Puppy("bit", "pug")
    return [
        repr(d),
        repr(p),
        d.speak(),
        p.speak(),
        Animal.speak(p),
        super(Dog, p).speak(),
        isinstance(p, Animal),
    ]
