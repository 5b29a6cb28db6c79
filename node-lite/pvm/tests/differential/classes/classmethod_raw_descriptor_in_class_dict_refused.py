# refused: dunder-attribute
class Date:
    @classmethod
    def from_string(cls, s):
        return cls(*map(int, s.split("-")))

    @staticmethod
    def is_leap(y):
        return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def run():
    return [type(Date.__dict__["from_string"]).__name__, type(Date.__dict__["is_leap"]).__name__]
