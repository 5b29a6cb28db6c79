import re

TOKEN = re.compile(r"""
    (?P<NUMBER>\d+(?:\.\d+)?)
  | (?P<NAME>[A-Za-z_]\w*)
  | (?P<OP>[-+*/()=])
  | (?P<WS>\s+)
  | (?P<BAD>.)
""", re.VERBOSE)


def tokenize(src):
    out = []
    for m in TOKEN.finditer(src):
        kind = m.lastgroup
        if kind == "WS":
            continue
        out.append((kind, m.group(), m.start()))
    return out


def run():
    return [
        tokenize("x = 3.14 * (radius + 2)"),
        tokenize("a$b"),
        tokenize(""),
    ]
