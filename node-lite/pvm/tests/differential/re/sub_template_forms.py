import re


def run():
    p = re.compile(r"(?P<first>\w+) (?P<second>\w+)")
    out = [
        p.sub(r"\g<second> \g<first>", "hello world"),
        p.sub(r"\2 \1", "hello world"),
        p.sub(r"\g<2>0 \g<1>", "hello world"),
        p.sub(r"[\n\t\\]", "a b"),
        re.sub(rb"(\w)", rb"<\1>", b"ab"),
        re.sub(r"a", lambda m: m.group().upper() * 2, "banana"),
        re.sub(r"a", "", "banana", count=2),
        p.match("x y").expand(r"\g<second>-\g<first>"),
        re.subn(r"\d", "#", "a1b22"),
    ]
    for repl in [r"\g<-1>", r"\g<a b>", r"\g<3>", r"\9", "\\x"]:
        try:
            out.append(p.sub(repl, "a b"))
        except (re.error, IndexError) as e:
            out.append([type(e).__name__, str(e)])
    return out
