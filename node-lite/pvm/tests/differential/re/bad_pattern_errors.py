import re


def compile_err(pattern):
    try:
        re.compile(pattern)
        return "ok"
    except re.error as e:
        return [type(e).__name__, str(e), e.pos]


def run():
    return [
        compile_err("(abc"),
        compile_err("abc)"),
        compile_err("[a-"),
        compile_err("*a"),
        compile_err("a{3,2}"),
        compile_err(r"(?P<1>x)"),
        compile_err(r"(?P<n>a)(?P<n>b)"),
        compile_err(r"\1(a)"),
        compile_err("[z-a]"),
        compile_err("a**"),
        compile_err(r"(?P=missing)"),
        compile_err("ok(fine)"),
    ]
