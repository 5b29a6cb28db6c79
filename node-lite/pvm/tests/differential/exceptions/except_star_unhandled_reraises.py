def run():
    log = []
    try:
        try:
            raise ExceptionGroup("eg", [ValueError("a"), KeyError("b"), ValueError("c")])
        except* ValueError as eg:
            log.append(["handled", [str(e) for e in eg.exceptions]])
    except ExceptionGroup as rest:
        log.append(["escaped", str(rest), [repr(e) for e in rest.exceptions]])
    try:
        try:
            raise TypeError("bare")
        except* TypeError as eg:
            log.append(["wrapped", type(eg).__name__, repr(eg.exceptions)])
    except Exception as e:
        log.append(["unexpected", repr(e)])
    return log
