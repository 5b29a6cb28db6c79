from enum import Flag, auto


class Perm(Flag):
    READ = auto()
    WRITE = auto()
    EXEC = auto()
    RW = READ | WRITE


def run():
    p = Perm.READ | Perm.WRITE
    out = [
        p.value,
        p is Perm.RW,
        p.name,
        Perm.READ in p,
        Perm.EXEC in p,
        bool(p & Perm.EXEC),
        bool(Perm(0)),
        (p ^ Perm.READ).name,
        (~Perm.READ).value,
        [m.name for m in Perm],
        [m.name for m in p],
        (Perm.READ | Perm.EXEC).name,
        Perm(5).value,
        len(Perm.READ | Perm.WRITE | Perm.EXEC),
    ]
    try:
        Perm(8)
    except ValueError as e:
        out.append(str(e))
    return out
