class Defaulting(dict):
    def __missing__(self, key):
        return "<" + key + ">"


def run():
    values = {"user": "ann", "n": 3}
    out = [
        "{user} has {n} items".format_map(values),
        "{user} has {n:03d}".format(**values),
        "{user} {missing}".format_map(Defaulting(user="ann")),
        "{0} {user}".format("first", **values),
    ]
    try:
        "{user} {other}".format_map(values)
    except KeyError as e:
        out.append([type(e).__name__, str(e)])
    try:
        "{0}".format_map(["x"])
    except (TypeError, KeyError, ValueError) as e:
        out.append([type(e).__name__, str(e)])
    return out
