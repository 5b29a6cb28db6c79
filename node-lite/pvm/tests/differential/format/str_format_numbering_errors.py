def run():
    out = [
        "{} {}".format("a", "b"),
        "{1} {0} {1}".format("a", "b"),
        "{0}{0}".format("z"),
        "{} {}".format(1, 2, 3),
        "{x}{y}".format(x=1, y=2, z=3),
    ]
    for fmt, args in (("{} {1}", ("a", "b")), ("{0} {}", ("a", "b")), ("{} {}", ("a",)),
                      ("{2}", ("a", "b")), ("{a}", ("a",))):
        try:
            out.append(fmt.format(*args))
        except (ValueError, IndexError, KeyError) as e:
            out.append([fmt, type(e).__name__, str(e)])
    return out
