import math

def run():
    return [repr(math.degrees(math.pi)), repr(math.degrees(math.pi / 2)), repr(math.degrees(1)), repr(math.degrees(-math.tau)),
            repr(math.radians(180)), repr(math.radians(90)), repr(math.radians(45)), repr(math.radians(-30)), repr(math.radians(0)),
            repr(math.degrees(math.radians(123.456)))]
