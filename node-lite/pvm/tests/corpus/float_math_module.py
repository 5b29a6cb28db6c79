import math

def run():
    vals = [math.sqrt(2), math.floor(-2.5), math.ceil(2.1), math.trunc(-3.7), math.fabs(-2.0), math.pi, math.e, math.isfinite(1.0), math.isnan(float("nan"))]
    return [repr(v) for v in vals]
