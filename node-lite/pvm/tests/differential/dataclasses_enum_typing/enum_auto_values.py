from enum import Enum, auto


class Dir(Enum):
    NORTH = auto()
    EAST = auto()
    SOUTH = auto()
    WEST = auto()


class Mixed(Enum):
    A = 10
    B = auto()
    C = "x"
    D = auto()


class Named(Enum):
    def _generate_next_value_(name, start, count, last_values):
        return name.lower() + str(count)

    ALPHA = auto()
    BETA = auto()


def run():
    out = [[d.value for d in Dir], [m.value for m in Mixed], [n.value for n in Named]]
    out.append(Dir(3).name)
    out.append(Named("beta1").name)
    return out
