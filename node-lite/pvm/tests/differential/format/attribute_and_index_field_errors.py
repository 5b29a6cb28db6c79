class Box:
    def __init__(self):
        self.value = 1


def run():
    out = []
    cases = [("{0[5]}", (["a"],), {}), ("{0[key]}", ({},), {}), ("{0.missing}", (Box(),), {}),
             ("{0[-1]}", (["a", "b"],), {}), ("{1}", ("a",), {}), ("{name}", (), {}),
             ("{0[}", ([1],), {}), ("{0.}", (Box(),), {}), ("{0[0]x}", ([1],), {})]
    for fmt, args, kwargs in cases:
        try:
            out.append(fmt.format(*args, **kwargs))
        except (IndexError, KeyError, AttributeError, ValueError, TypeError) as e:
            out.append([fmt, type(e).__name__, str(e)])
    return out
