class Record:
    def __init__(self, **fields):
        self._fields = fields
        self.hits = []

    def __getattr__(self, name):
        self.hits.append(name)
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__!r} has no field {name!r}") from None


class Upper:
    def __init__(self):
        self.word = "hi"

    def __getattribute__(self, name):
        v = object.__getattribute__(self, name)
        return v.upper() if isinstance(v, str) else v


def run():
    r = Record(a=1, b="two")
    out = [r.a, r.b, r.hits]
    out.append(getattr(r, "zzz", "default"))
    out.append(hasattr(r, "nope"))
    try:
        r.missing
    except AttributeError as e:
        out.append(str(e))
    out.append(r._fields == {"a": 1, "b": "two"})
    out.append(r.hits)
    u = Upper()
    out.append(u.word)
    u.word = "bye"
    out.append(u.word)
    return out
