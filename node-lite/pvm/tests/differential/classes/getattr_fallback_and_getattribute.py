class Record:
    kind = "record"

    def __init__(self, **fields):
        self._fields = fields
        self.hits = []

    def __getattr__(self, name):
        self.hits.append(name)
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__!r} has no field {name!r}") from None


class Defaults(Record):
    def __getattr__(self, name):
        self.hits.append(name)
        return self._fields.get(name, name.upper())


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
    out.append([r.kind, getattr(r, "kind")])
    out.append(r.hits)
    r.a = 5
    out.append([r.a, r._fields["a"]])
    d = Defaults(x=1)
    out.append([d.x, d.y, getattr(d, "z", None), d.kind, d.hits])
    return out
