import math

def run():
    out = []
    for kw in ({"rel_tol": -1}, {"abs_tol": -0.1}, {"rel_tol": 0.0}):
        try:
            out.append(math.isclose(1.0, 1.0, **kw))
        except Exception as e:
            out.append([type(e).__name__, str(e)])
    try:
        math.isclose(1.0, 2.0, 0.5)
    except TypeError as e:
        out.append(type(e).__name__)
    return out
