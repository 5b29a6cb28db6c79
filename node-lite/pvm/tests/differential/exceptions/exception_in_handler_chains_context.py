def run():
    out = []
    try:
        try:
            raise ValueError("first")
        except ValueError:
            {}["second"]
    except KeyError as e:
        ctx = e.__context__
        out.append([repr(e), repr(ctx), ctx.__context__ is None])
    try:
        try:
            raise ValueError("in try")
        finally:
            raise RuntimeError("in finally")
    except RuntimeError as e:
        out.append([str(e), repr(e.__context__)])
    err = ValueError("manual")
    err.__cause__ = KeyError("cause")
    out.append([repr(err.__cause__), err.__suppress_context__])
    return out
