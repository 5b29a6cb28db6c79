def run():
    out = []
    e = "before"
    try:
        raise ValueError("boom")
    except ValueError as e:
        out.append(str(e))
    try:
        e
        out.append("still bound")
    except NameError as err:
        out.append([type(err).__name__, isinstance(err, NameError), str(err)])
    saved = None
    try:
        raise KeyError("k")
    except KeyError as exc:
        saved = exc
    out.append(repr(saved))
    return out
