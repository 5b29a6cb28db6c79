import string


class Percent(string.Template):
    delimiter = "%"


class Lower(string.Template):
    idpattern = r"[a-z]+"
    flags = 0


class Braced(string.Template):
    braceidpattern = r"[a-z]+\.[a-z]+"


class Own(string.Template):
    pattern = r"""
    \{\{(?:
      (?P<escaped>\{\{) |
      (?P<named>[a-z]+)\}\} |
      (?P<braced>[a-z]+)\}\} |
      (?P<invalid>)
    )
    """


def attempt(f):
    try:
        return f()
    except (KeyError, ValueError, IndexError) as e:
        return [type(e).__name__, str(e)]


def run():
    t = string.Template("$who likes ${what}; $$5 costs $cost")
    return [
        string.ascii_letters,
        string.digits + string.hexdigits + string.octdigits,
        string.punctuation,
        repr(string.whitespace),
        len(string.printable),
        string.capwords("  hello   wide\tworld  "),
        string.capwords("a-b-c d", "-"),
        t.substitute(who="tim", what="kung pao", cost=3),
        t.substitute({"who": "ann", "what": "tea"}, cost=1),
        t.safe_substitute(who="tim"),
        t.get_identifiers(),
        t.is_valid(),
        string.Template("$a $").is_valid(),
        attempt(lambda: t.substitute(who="x")),
        attempt(lambda: string.Template("line\n  $ bad").substitute()),
        attempt(lambda: string.Template("${a").substitute(a=1)),
        string.Template("$ÄÖ $a1_b").safe_substitute(a1_b=2),
        string.Template("$Who").substitute(Who=1, who=2),
        Percent("%x is %%x, not $x").substitute(x=1),
        Lower("$ab $AB").safe_substitute(ab=1, AB=2),
        Braced("${a.b} $c").safe_substitute({"a.b": 1, "c": 2}),
        Own("{{name}} and {{{{ and {{x").safe_substitute(name="N"),
        repr(string.Template.flags),
        string.Template.delimiter,
        string.Template.pattern.pattern == Percent.pattern.pattern,
        sorted(string.Template.pattern.groupindex),
        string.Formatter().format("{0}-{x:>4}-{1!r}", 1, "b", x=3),
        string.Formatter().vformat("{a[0]}{b.real}", (), {"a": [7], "b": 2}),
        list(string.Formatter().parse("a{0:>3}b{{c}}{d!s}")),
        attempt(lambda: string.Formatter().format("{0}")),
    ]
