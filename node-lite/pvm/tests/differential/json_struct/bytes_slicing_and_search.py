def run():
    b = b"hello, world; hello!"
    return [
        b[0], b[-1], b[1:5], b[::-1], b[::3], b[100:],
        b.find(b"hello"), b.find(b"hello", 1), b.find(b"zz"), b.rfind(b"l"),
        b.index(b"world"), b.count(b"l"), b.find(111), b"o" in b, 119 in b,
        b.startswith(b"he"), b.endswith((b"?", b"!")),
        b.replace(b"hello", b"bye"), b.upper(), b.title(),
        b.partition(b";"), b.rpartition(b"l"),
    ]
