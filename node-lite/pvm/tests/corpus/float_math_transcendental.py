import math

def run():
    xs = [math.exp(1), math.log(10), math.log(8, 2), math.log10(1000), math.sin(math.pi / 6), math.cos(0), math.atan2(1, 1), math.hypot(3, 4), math.pow(2, 0.5)]
    return repr([round(x, 9) for x in xs])
