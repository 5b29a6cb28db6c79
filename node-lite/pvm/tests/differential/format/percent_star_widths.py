def attempt(f, a):
    try:
        return f % a
    except (TypeError, ValueError, OverflowError) as e:
        return [type(e).__name__, str(e)]


def run():
    tests = [("%*d|", (6, 42)), ("%-*d|", (6, 42)), ("%*d|", (-6, 42)), ("%.*f", (2, 3.14159)),
             ("%*.*f|", (8, 3, 2.71828)), ("%*s", ("a", 1)), ("%*d", (6,)), ("%0*d", (5, 42)),
             ("%.*s", (2, "abcdef")), ("%.*f", (-2, 3.14159)), ("%*d", (True, 4)),
             ("%*d", (2 ** 70, 4)), ("%*d", (1.5, 4)), ("%*.*s|", (-5, 1, "xyz")),
             ("%s %*d", ("a", 3, 7)), ("%*d %s", (3, 7)), ("%*d", (3, 7, 8)), ("%-*d|", (-4, 1)),
             ("%%%*d", (3, 1)), ("%.*d", (3, 7)), ("%*c", (3, "x")), ("a * b = %*d", (4, 6))]
    out = [attempt(f, a) for f, a in tests]
    out.append(b"%*d|%-*s|" % (4, 2, 3, b"x"))
    return out
