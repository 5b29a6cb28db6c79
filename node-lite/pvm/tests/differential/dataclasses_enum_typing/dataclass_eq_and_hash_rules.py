from dataclasses import dataclass


@dataclass
class Plain:
    x: int


@dataclass(eq=False)
class Identity:
    x: int


@dataclass(unsafe_hash=True)
class Hashy:
    x: int
    y: int = 0


@dataclass(frozen=True, eq=False)
class FrozenNoEq:
    x: int


def run():
    out = [Plain(1) == Plain(1), Plain(1) != Plain(2)]
    try:
        hash(Plain(1))
    except TypeError as e:
        out.append(str(e))
    try:
        {Plain(1)}
    except TypeError as e:
        out.append(str(e))
    a = Identity(1)
    out += [a == Identity(1), a == a, len({a, Identity(1)})]
    out.append(len({Hashy(1), Hashy(1, 0), Hashy(2)}))
    out.append(hash(Hashy(1, 2)) == hash(Hashy(1, 2)))
    out.append(FrozenNoEq(1) == FrozenNoEq(1))
    try:
        @dataclass(unsafe_hash=True)
        class Clash:
            x: int

            def __hash__(self):
                return 0
    except TypeError as e:
        out.append(str(e))
    return out
