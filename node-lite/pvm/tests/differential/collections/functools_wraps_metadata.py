from functools import wraps


def logged(fn):
    @wraps(fn)
    def wrapper(*args, **kwargs):
        wrapper.calls += 1
        return fn(*args, **kwargs)
    wrapper.calls = 0
    return wrapper


def unwrapped_deco(fn):
    def inner(*a):
        return fn(*a)
    return inner


@logged
def add(a, b=1):
    """Add two numbers."""
    return a + b


@unwrapped_deco
def sub(a, b):
    """Subtract."""
    return a - b


def run():
    add(1)
    add(2, 3)
    return [add.__name__, add.__doc__, add.calls, add(10, 5), add.calls,
            add.__qualname__, sub.__name__, sub.__doc__, sub(5, 2), sub.__qualname__]
