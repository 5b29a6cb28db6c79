def run():
    it = iter([1, 2])
    out = [next(it), next(it), next(it, "default")]
    try:
        next(it)
    except StopIteration:
        out.append("stop")
    return out
