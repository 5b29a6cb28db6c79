class Only:
    def __repr__(self):
        return "Only()"


class Child(Only):
    pass


class StrOnly:
    def __str__(self):
        return "str-only"


def run():
    o = Only()
    c = Child()
    s = StrOnly()
    return {
        "str_only_repr": str(o),
        "child_str": str(c),
        "format_empty": format(o, ""),
        "fstring": f"{c}",
        "str_defined": str(s),
        "repr_has_default": repr(s).startswith("<") and "StrOnly object at" in repr(s),
        "tuple_str": str((o, c)),
    }
