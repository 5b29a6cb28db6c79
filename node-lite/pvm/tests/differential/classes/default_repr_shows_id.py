class Q:
    pass


class Tagged:
    def __repr__(self):
        return "Tagged at 0x1234"


def f():
    pass


def run():
    q = Q()
    items = []
    gen = (x for x in items)
    return {
        "object": repr(q).endswith(".Q object at %s>" % hex(id(q))),
        "function": repr(f) == "<function f at %s>" % hex(id(f)),
        "builtin_method": repr(items.append) == "<built-in method append of list object at %s>" % hex(id(items)),
        "generator": repr(gen).endswith(" at %s>" % hex(id(gen))),
        "nested": repr([q, (q,)]) == "[%s, (%s,)]" % (repr(q), repr(q)),
        "dict": repr({"k": q}) == "{'k': %s}" % repr(q),
        "user_text_kept": repr([Tagged()]),
        "str_is_repr": str(q) == repr(q),
        "format_is_repr": format(q, "") == repr(q) and f"{q}" == repr(q),
        "stable": repr(q) == repr(q),
    }
