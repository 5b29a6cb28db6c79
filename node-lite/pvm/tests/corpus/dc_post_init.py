from dataclasses import dataclass, field

@dataclass
class Rect:
    w: int
    h: int
    area: int = field(init=False)

    def __post_init__(self):
        self.area = self.w * self.h

def run():
    r = Rect(3, 4)
    return [r.area, repr(r)]
