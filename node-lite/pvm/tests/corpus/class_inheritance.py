class Animal:
    sound = "..."
    def speak(self):
        return f"{type(self).__name__} says {self.sound}"

class Dog(Animal):
    sound = "woof"

class Puppy(Dog):
    def speak(self):
        return super().speak() + "!"

def run():
    return [Animal().speak(), Dog().speak(), Puppy().speak(), isinstance(Puppy(), Animal), issubclass(Dog, Puppy), [c.__name__ for c in Puppy.mro()]]
