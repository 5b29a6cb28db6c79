import os

class Actor:
    def peek(self):
        return ().__class__.__base__.__subclasses__()
