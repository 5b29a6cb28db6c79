def run():
    log = []
    for i in range(6):
        try:
            if i == 1:
                continue
            if i == 4:
                break
            if i == 2:
                raise KeyError(i)
            log.append(("body", i))
        except KeyError as e:
            log.append(("caught", e.args[0]))
            continue
        finally:
            log.append(("finally", i))
    n = 0
    while True:
        try:
            n += 1
            if n == 3:
                break
        finally:
            log.append(("while-finally", n))
    return [list(t) for t in log]
