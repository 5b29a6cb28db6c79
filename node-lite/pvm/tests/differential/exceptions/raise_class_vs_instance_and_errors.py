class Boom(Exception):
    pass


def run():
    out = []
    try:
        raise Boom
    except Boom as e:
        out.append([repr(e), list(e.args)])
    try:
        raise 42
    except TypeError as e:
        out.append(str(e))
    try:
        raise
    except RuntimeError as e:
        out.append(str(e))
    try:
        raise ValueError("a") from 5
    except TypeError as e:
        out.append(str(e))
    try:
        try:
            raise KeyError("x")
        except int:
            pass
    except TypeError as e:
        out.append(str(e))
    return out
