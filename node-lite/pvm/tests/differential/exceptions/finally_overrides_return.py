def returns_in_both():
    try:
        return "try"
    finally:
        return "finally"


def swallow_in_finally():
    try:
        raise ValueError("lost")
    finally:
        return "finally wins"


def finally_sees_value(log):
    x = 1
    try:
        return x
    finally:
        x = 2
        log.append(x)


def run():
    log = []
    return [returns_in_both(), swallow_in_finally(), finally_sees_value(log), log]
