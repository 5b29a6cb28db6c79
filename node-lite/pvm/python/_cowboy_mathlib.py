"""math for actors: deterministic on every machine.

Floating-point functions (sin, exp, log, pow, …) come from a pure-Rust libm, never the host's C
library, so every node computes bit-identical results. Integer functions are exact Python
integer arithmetic, metered and bounded by the PVM's 4,096-bit integer limit.
"""

from _cowboy_math import (
    sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh,
    exp, exp2, expm1, log, log1p, log2, log10, sqrt, cbrt, fabs, erf, erfc,
    gamma, lgamma, degrees, radians, pow, atan2, fmod, copysign, ldexp,
    frexp, modf, isnan, isinf, isfinite, pi, e, tau, inf, nan,
)
from _struct import pack as _pack, unpack as _unpack

__all__ = [
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt", "cbrt", "fabs",
    "erf", "erfc", "gamma", "lgamma", "degrees", "radians", "pow", "atan2", "hypot", "fmod",
    "copysign", "ldexp", "frexp", "modf", "isnan", "isinf", "isfinite", "isclose",
    "pi", "e", "tau", "inf", "nan",
    "floor", "ceil", "trunc", "gcd", "lcm", "factorial", "comb", "perm", "isqrt", "prod",
    "fsum", "dist", "hypot", "isclose", "remainder", "nextafter", "ulp",
]


def _index(x):
    """operator.index: the integer an object stands for, or CPython's TypeError."""
    if isinstance(x, int):
        return int(x)
    try:
        method = type(x).__index__
    except AttributeError:
        raise TypeError(
            "'%s' object cannot be interpreted as an integer" % type(x).__name__
        ) from None
    return method(x)


def _float(x):
    """PyFloat_AsDouble: a float from a real number, or CPython's TypeError."""
    if isinstance(x, float):
        return x
    if isinstance(x, int) or hasattr(type(x), "__float__") or hasattr(type(x), "__index__"):
        return float(x)
    raise TypeError("must be real number, not %s" % type(x).__name__)


def _float_to_int(x):
    if x != x:
        raise ValueError("cannot convert float NaN to integer")
    if x in (inf, -inf):
        raise OverflowError("cannot convert float infinity to integer")
    return int(x)


def floor(x):
    if isinstance(x, int):
        return int(x)
    if not isinstance(x, float):
        method = getattr(type(x), "__floor__", None)
        if method is not None:
            return method(x)
        x = _float(x)
    n = _float_to_int(x)
    return n - 1 if n > x else n


def ceil(x):
    if isinstance(x, int):
        return int(x)
    if not isinstance(x, float):
        method = getattr(type(x), "__ceil__", None)
        if method is not None:
            return method(x)
        x = _float(x)
    n = _float_to_int(x)
    return n + 1 if n < x else n


def trunc(x):
    if isinstance(x, float):
        return _float_to_int(x)
    method = getattr(type(x), "__trunc__", None)
    if method is None:
        raise TypeError("type %s doesn't define __trunc__ method" % type(x).__name__)
    return method(x)


def gcd(*integers):
    result = 0
    for n in integers:
        n = abs(_index(n))
        while n:
            result, n = n, result % n
    return result


def lcm(*integers):
    result = 1
    for n in integers:
        n = abs(_index(n))
        if n == 0:
            return 0
        result = result // gcd(result, n) * n
    return result


def factorial(n):
    n = _index(n)
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


def _non_negative(n, k):
    n = _index(n)
    k = _index(k)
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")
    return n, k


def perm(n, k=None):
    if k is None:
        return factorial(n)
    n, k = _non_negative(n, k)
    if k > n:
        return 0
    result = 1
    for i in range(n - k + 1, n + 1):
        result *= i
    return result


def comb(n, k):
    n, k = _non_negative(n, k)
    if k > n:
        return 0
    k = min(k, n - k)
    result = 1
    for i in range(1, k + 1):
        result = result * (n - k + i) // i
    return result


def isqrt(n):
    n = _index(n)
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


def isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0):
    a, b, rel_tol, abs_tol = _float(a), _float(b), _float(rel_tol), _float(abs_tol)
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError("tolerances must be non-negative")
    if a == b:
        return True
    if a in (inf, -inf) or b in (inf, -inf):
        return False
    diff = fabs(b - a)
    return diff <= fabs(rel_tol * b) or diff <= fabs(rel_tol * a) or diff <= abs_tol


def remainder(x, y):
    # m_remainder of CPython's mathmodule.c: IEEE 754 remainder, exact.
    x, y = _float(x), _float(y)
    if isfinite(x) and isfinite(y):
        if y == 0.0:
            raise ValueError("math domain error")
        absx, absy = fabs(x), fabs(y)
        m = fmod(absx, absy)
        c = absy - m
        if m < c:
            r = m
        elif m > c:
            r = -c
        else:
            r = m - 2.0 * fmod(0.5 * (absx - m), absy)
        return copysign(1.0, x) * r
    if x != x:
        return x
    if y != y:
        return y
    if isinf(x):
        raise ValueError("math domain error")
    return x


def _bits(x):
    return _unpack("<Q", _pack("<d", x))[0]


def _from_bits(n):
    return _unpack("<d", _pack("<Q", n))[0]


def nextafter(x, y):
    x, y = _float(x), _float(y)
    if x != x or y != y:
        return x + y
    if x == y:
        return y
    if x == 0.0:
        return copysign(5e-324, y)
    # Away from zero is one step up in the magnitude's bits, towards zero one step down.
    if (y > x) == (x > 0.0):
        return _from_bits(_bits(x) + 1)
    return _from_bits(_bits(x) - 1)


def ulp(x):
    x = _float(x)
    if x != x:
        return x
    x = fabs(x)
    if x == inf:
        return x
    x2 = nextafter(x, inf)
    if x2 == inf:
        return x - nextafter(x, -inf)
    return x2 - x


def _dl_split(x):
    t = x * 134217729.0  # Veltkamp's constant, 2**27 + 1
    hi = t - (t - x)
    return hi, x - hi


def _dl_mul(x, y):
    # Dekker's exact product: x*y == z + zz.
    xh, xl = _dl_split(x)
    yh, yl = _dl_split(y)
    p = xh * yh
    q = xh * yl + xl * yh
    z = p + q
    zz = p - z + q + xl * yl
    return z, zz


def _vector_norm(vec, largest, found_nan):
    # vector_norm of CPython 3.11's mathmodule.c: scaled, compensated sum of squares with
    # a final differential correction.
    if largest == inf:
        return largest
    if found_nan:
        return nan
    if largest == 0.0 or len(vec) <= 1:
        return largest
    max_e = frexp(largest)[1]
    if max_e < -1023:
        dbl_min = 2.2250738585072014e-308
        return dbl_min * _vector_norm([v / dbl_min for v in vec], largest / dbl_min, found_nan)
    scale = ldexp(1.0, -max_e)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    for x in vec:
        x *= scale
        pr_hi, pr_lo = _dl_mul(x, x)
        sm_hi = csum + pr_hi
        sm_lo = pr_hi - (sm_hi - csum)
        csum = sm_hi
        frac1 += pr_lo
        frac2 += sm_lo
    h = sqrt(csum - 1.0 + (frac1 + frac2))
    pr_hi, pr_lo = _dl_mul(-h, h)
    sm_hi = csum + pr_hi
    sm_lo = pr_hi - (sm_hi - csum)
    csum = sm_hi
    frac1 += pr_lo
    frac2 += sm_lo
    x = csum - 1.0 + (frac1 + frac2)
    h += x / (2.0 * h)
    return h / scale


def hypot(*coordinates):
    vec = []
    largest = 0.0
    found_nan = False
    for c in coordinates:
        x = fabs(_float(c))
        vec.append(x)
        found_nan = found_nan or x != x
        if x > largest:
            largest = x
    return _vector_norm(vec, largest, found_nan)


def prod(iterable, *, start=1):
    result = start
    for x in iterable:
        result = result * x
    return result


def fsum(iterable):
    # math_fsum of CPython's mathmodule.c: Shewchuk's exact partials, special values, and
    # correctly rounded (half-even) across the partials.
    partials = []
    special_sum = 0.0
    inf_sum = 0.0
    for x in iterable:
        x = _float(x)
        xsave = x
        i = 0
        for y in partials:
            if fabs(x) < fabs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        del partials[i:]
        if x != 0.0:
            if not isfinite(x):
                # Either an intermediate overflow or a nan or inf among the summands.
                if isfinite(xsave):
                    raise OverflowError("intermediate overflow in fsum")
                if isinf(xsave):
                    inf_sum += xsave
                special_sum += xsave
                partials = []
            else:
                partials.append(x)
    if special_sum != 0.0:
        if inf_sum != inf_sum:
            raise ValueError("-inf + inf in fsum")
        return special_sum
    hi = 0.0
    n = len(partials)
    if n > 0:
        n -= 1
        hi = partials[n]
        lo = 0.0
        while n > 0:
            x = hi
            n -= 1
            y = partials[n]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        if n > 0 and ((lo < 0.0 and partials[n - 1] < 0.0) or (lo > 0.0 and partials[n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi


def dist(p, q):
    p, q = tuple(p), tuple(q)
    if len(p) != len(q):
        raise ValueError("both points must have the same number of dimensions")
    vec = []
    largest = 0.0
    found_nan = False
    for a, b in zip(p, q):
        x = fabs(_float(a) - _float(b))
        vec.append(x)
        found_nan = found_nan or x != x
        if x > largest:
            largest = x
    return _vector_norm(vec, largest, found_nan)
