from enum import IntFlag


class Mode(IntFlag):
    R = 4
    W = 2
    X = 1


def run():
    rw = Mode.R | Mode.W
    out = [
        int(rw),
        rw == 6,
        rw.name,
        Mode.W in rw,
        int(rw | 1),
        type(rw | 1).__name__,
        int(Mode(7)),
        Mode(7).name,
        int(Mode(0)),
        int(rw & ~Mode.W),
        int(Mode.R + 1),
        type(Mode.R + 1).__name__,
        repr(Mode(5)),
        str(Mode.X),
        int(Mode(8)),
    ]
    return out
