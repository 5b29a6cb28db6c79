from enum import Enum, unique


@unique
class Ok(Enum):
    A = 1
    B = 2


class Color(Enum):
    RED = 1


def run():
    out = [[m.name for m in Ok]]
    try:
        @unique
        class Dup(Enum):
            A = 1
            B = 2
            C = 1
            D = 2
    except ValueError as e:
        out.append(str(e))
    try:
        Color.RED = 2
    except AttributeError as e:
        out.append(str(e))
    try:
        del Color.RED
    except AttributeError as e:
        out.append(str(e))
    try:
        class Sub(Color):
            BLUE = 3
    except TypeError as e:
        out.append(str(e))
    try:
        class Twice(Enum):
            A = 1
            A = 2
    except TypeError as e:
        out.append(str(e))
    try:
        Color()
    except TypeError as e:
        out.append(type(e).__name__)
    return out
