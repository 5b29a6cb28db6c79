import re


def sub_err(pattern, repl, s):
    try:
        return re.sub(pattern, repl, s)
    except (re.error, IndexError) as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        sub_err(r"(a)", r"\2", "a"),
        sub_err(r"(a)", r"\g<name>", "a"),
        sub_err(r"(a)", r"\g<1", "a"),
        sub_err(r"(?P<x>a)", r"\g<x>\g<x>", "a"),
        sub_err(r"a", "\\", "a"),
        sub_err(r"(a)", r"\g<0>!", "bab"),
    ]
