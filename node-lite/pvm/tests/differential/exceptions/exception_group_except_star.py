def validate(items):
    errors = []
    for i, item in enumerate(items):
        if not isinstance(item, int):
            errors.append(TypeError(f"item {i} is not int"))
        elif item < 0:
            errors.append(ValueError(f"item {i} is negative"))
    if errors:
        raise ExceptionGroup("validation failed", errors)
    return sum(items)


def run():
    out = []
    try:
        validate([1, -2, "x", -4])
    except* ValueError as eg:
        out.append(["values", [str(e) for e in eg.exceptions], str(eg)])
    except* TypeError as eg:
        out.append(["types", [str(e) for e in eg.exceptions]])
    out.append(validate([1, 2]))
    try:
        validate(["a"])
    except ExceptionGroup as eg:
        out.append([type(eg).__name__, str(eg), eg.message, len(eg.exceptions)])
    return out
