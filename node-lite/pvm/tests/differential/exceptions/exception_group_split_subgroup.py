def run():
    eg = ExceptionGroup("batch", [
        ValueError("v1"),
        KeyError("k1"),
        ExceptionGroup("inner", [ValueError("v2"), IndexError(3)]),
    ])
    match, rest = eg.split(ValueError)
    lookup = eg.subgroup(LookupError)
    none = eg.subgroup(ZeroDivisionError)
    derived = eg.derive([RuntimeError("r")])
    return {
        "str": str(eg),
        "match": repr(match),
        "rest": repr(rest),
        "lookup": repr(lookup),
        "none": none is None,
        "derived": [type(derived).__name__, derived.message, repr(derived.exceptions)],
        "base": type(BaseExceptionGroup("b", [ValueError()])).__name__,
    }
