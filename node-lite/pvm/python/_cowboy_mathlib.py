"""math for actors: deterministic on every machine.

Floating-point functions (sin, exp, log, pow, …) come from a pure-Rust libm, never the host's C
library, so every node computes bit-identical results. Integer functions are exact Python
integer arithmetic, metered and bounded by the PVM's 4,096-bit integer limit.
"""

from _cowboy_math import (
    sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh,
    exp, exp2, expm1, log, log1p, log2, log10, sqrt, cbrt, fabs, erf, erfc,
    gamma, lgamma, degrees, radians, pow, atan2, hypot, fmod, copysign, ldexp,
    frexp, modf, isnan, isinf, isfinite, isclose, pi, e, tau, inf, nan,
)

__all__ = [
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt", "cbrt", "fabs",
    "erf", "erfc", "gamma", "lgamma", "degrees", "radians", "pow", "atan2", "hypot", "fmod",
    "copysign", "ldexp", "frexp", "modf", "isnan", "isinf", "isfinite", "isclose",
    "pi", "e", "tau", "inf", "nan",
    "floor", "ceil", "trunc", "gcd", "lcm", "factorial", "comb", "perm", "isqrt", "prod",
    "fsum", "dist",
]


def floor(x):
    if isinstance(x, int):
        return x
    f = x.__floor__()
    return f


def ceil(x):
    if isinstance(x, int):
        return x
    return x.__ceil__()


def trunc(x):
    return x.__trunc__()


def gcd(*integers):
    result = 0
    for n in integers:
        n = abs(n.__index__())
        while n:
            result, n = n, result % n
    return result


def lcm(*integers):
    result = 1
    for n in integers:
        n = abs(n.__index__())
        if n == 0:
            return 0
        result = result // gcd(result, n) * n
    return result


def factorial(n):
    n = n.__index__()
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


def perm(n, k=None):
    n = n.__index__()
    if k is None:
        return factorial(n)
    k = k.__index__()
    if n < 0 or k < 0:
        raise ValueError("n and k must be non-negative integers")
    if k > n:
        return 0
    result = 1
    for i in range(n - k + 1, n + 1):
        result *= i
    return result


def comb(n, k):
    n = n.__index__()
    k = k.__index__()
    if n < 0 or k < 0:
        raise ValueError("n and k must be non-negative integers")
    if k > n:
        return 0
    k = min(k, n - k)
    result = 1
    for i in range(1, k + 1):
        result = result * (n - k + i) // i
    return result


def isqrt(n):
    n = n.__index__()
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    if n == 0:
        return 0
    x = 1 << ((n.bit_length() + 1) // 2)
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


def prod(iterable, *, start=1):
    result = start
    for x in iterable:
        result = result * x
    return result


def fsum(iterable):
    # Shewchuk's exact summation (as CPython's math.fsum), in pure Python.
    partials = []
    for x in iterable:
        x = float(x)
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]
    total = 0.0
    for p in partials:
        total += p
    return total


def dist(p, q):
    if len(p) != len(q):
        raise ValueError("both points must have the same number of dimensions")
    return sqrt(fsum((float(a) - float(b)) ** 2 for a, b in zip(p, q)))
