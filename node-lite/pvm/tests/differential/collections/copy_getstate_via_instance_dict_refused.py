# refused: dunder-attribute
import copy


class Stateful:
    def __init__(self):
        self.x = 1
        self.secret = "s"

    def __getstate__(self):
        st = dict(self.__dict__)
        del st["secret"]
        return st

    def __setstate__(self, st):
        self.__dict__.update(st)
        self.secret = "restored"


def run():
    s = copy.deepcopy(Stateful())
    return [s.x, s.secret]
