class Date:
    count = 0

    def __init__(self, y, m, d):
        self.y, self.m, self.d = y, m, d
        type(self).count += 1

    @classmethod
    def from_string(cls, s):
        return cls(*map(int, s.split("-")))

    @staticmethod
    def is_leap(y):
        return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)

    @classmethod
    def kind(cls):
        return cls.__name__

    def __repr__(self):
        return f"{type(self).__name__}({self.y}, {self.m}, {self.d})"


class BizDate(Date):
    count = 0


def run():
    a = Date.from_string("2024-02-29")
    b = BizDate.from_string("2023-1-5")
    return [
        repr(a),
        repr(b),
        Date.is_leap(1900),
        a.is_leap(2000),
        BizDate.kind(),
        b.kind(),
        Date.count,
        BizDate.count,
        type(Date.from_string).__name__,
        type(Date.is_leap).__name__,
        repr(BizDate.from_string("2020-12-31")),
        BizDate.count,
    ]
