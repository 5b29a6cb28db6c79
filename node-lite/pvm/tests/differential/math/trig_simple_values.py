import math

def run():
    return [repr(math.sin(0)), repr(math.sin(math.pi / 2)), repr(math.sin(math.pi)), repr(math.cos(0)), repr(math.cos(math.pi)),
            repr(math.cos(math.pi / 2)), repr(math.tan(0)), repr(math.tan(math.pi / 4)), repr(math.sin(-0.0)), repr(math.sin(1)),
            repr(math.cos(1)), repr(math.tan(1))]
