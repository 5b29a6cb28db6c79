# refused: dunder-attribute
from functools import wraps


def logged(fn):
    @wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@logged
def add(a, b=1):
    return a + b


def run():
    return [add.__wrapped__(10, 5), add.__wrapped__.__name__]
