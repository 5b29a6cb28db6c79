from dataclasses import dataclass

@dataclass(order=True, frozen=True)
class Ver:
    major: int
    minor: int = 0

def run():
    vs = sorted([Ver(1, 2), Ver(0, 9), Ver(1)])
    try:
        vs[0].major = 5
        err = None
    except Exception as e:
        err = type(e).__name__
    return [repr(vs), err, Ver(1) < Ver(1, 1)]
