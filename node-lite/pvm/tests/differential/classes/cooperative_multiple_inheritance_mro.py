class Base:
    def __init__(self, **kw):
        self.trail = ["Base"]
        self.extra = kw

    def hello(self):
        return ["Base"]


class Left(Base):
    def __init__(self, left=None, **kw):
        super().__init__(**kw)
        self.trail.append("Left")
        self.left = left

    def hello(self):
        return ["Left"] + super().hello()


class Right(Base):
    def __init__(self, right=None, **kw):
        super().__init__(**kw)
        self.trail.append("Right")
        self.right = right

    def hello(self):
        return ["Right"] + super().hello()


class Both(Left, Right):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.trail.append("Both")

    def hello(self):
        return ["Both"] + super().hello()


def run():
    b = Both(left=1, right=2, other=3)
    return [
        [c.__name__ for c in Both.mro()],
        [c.__name__ for c in Left.mro()],
        b.trail,
        b.hello(),
        [b.left, b.right],
        b.extra,
        [issubclass(Both, Right), issubclass(Left, Right), isinstance(b, Base)],
        Right(right=5).trail,
    ]
