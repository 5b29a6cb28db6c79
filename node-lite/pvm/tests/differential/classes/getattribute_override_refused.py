# refused: dunder-attribute
class Upper:
    def __init__(self):
        self.word = "hi"

    def __getattribute__(self, name):
        v = object.__getattribute__(self, name)
        return v.upper() if isinstance(v, str) else v


def run():
    u = Upper()
    out = [u.word]
    u.word = "bye"
    out.append(u.word)
    return out
