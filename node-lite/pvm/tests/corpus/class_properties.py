class Temp:
    def __init__(self, c):
        self._c = c

    @property
    def f(self):
        return self._c * 9 / 5 + 32

    @f.setter
    def f(self, value):
        self._c = (value - 32) * 5 / 9

def run():
    t = Temp(100)
    before = t.f
    t.f = 32
    return repr([before, t._c, t.f])
