def run():
    out = [ord("A"), ord("é"), ord("€"), ord("\U0001F600"), chr(65), chr(233), chr(0x1F600),
           chr(0x10FFFF) == "\U0010ffff", ord(chr(0)), [ord(c) for c in "hi!"]]
    for f in (lambda: ord("ab"), lambda: ord(""), lambda: chr(-1), lambda: chr(0x110000),
              lambda: chr("A"), lambda: ord(65), lambda: ord(b"A")):
        try:
            out.append(f())
        except (TypeError, ValueError) as e:
            out.append([type(e).__name__, str(e)])
    return out
