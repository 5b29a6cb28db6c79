def step(log, value):
    try:
        log.append("try")
        result = 10 // value
    except ZeroDivisionError:
        log.append("except")
        result = -1
    else:
        log.append("else")
        result += 1
    finally:
        log.append("finally")
    log.append("after")
    return result


def run():
    a, b = [], []
    ra = step(a, 2)
    rb = step(b, 0)
    return {"ok": [ra, a], "fail": [rb, b]}
