import re


def run():
    s = "  Hello \t  world\n\n  this   is\ttext  "
    return [
        re.sub(r"\s+", " ", s).strip(),
        re.sub(r"[ \t]+$", "", "line one   \nline two\t\n", flags=re.M),
        re.sub(r"^\s+", "", "  a\n   b\n c", flags=re.M),
        re.sub(r"\n{2,}", "\n", "a\n\n\nb\n\nc"),
        re.sub(r"<[^>]+>", "", "<p>Hello <b>bold</b> world</p>"),
        re.subn(r"\s", "", "a b\tc\nd\u2003e"),
        re.split(r"\s*[,;]\s*", "a , b;c ;  d"),
    ]
