from dataclasses import dataclass, field


@dataclass
class Rect:
    w: int
    h: int
    area: int = field(init=False)
    label: str = field(init=False, default="")

    def __post_init__(self):
        if self.w < 0 or self.h < 0:
            raise ValueError(f"negative size: {self.w}x{self.h}")
        self.area = self.w * self.h
        self.label = f"{self.w}x{self.h}"


def run():
    r = Rect(3, 4)
    out = [r.area, r.label, repr(r)]
    try:
        Rect(-1, 2)
    except ValueError as e:
        out.append(str(e))
    try:
        Rect(1, 2, 3)
    except TypeError as e:
        out.append(str(e))
    out.append(Rect(2, 2) == Rect(2, 2))
    return out
