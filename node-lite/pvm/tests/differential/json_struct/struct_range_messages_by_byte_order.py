# struct.pack's range errors depend on the byte order: '<' and '=' use the native functions
# where the sizes agree, '>' and '!' their own; floats overflow by precision.
import struct


def attempt(fn):
    try:
        return ["ok", fn().hex()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    out = []
    for code in "bBhHiIlLqQ":
        for order in "@<>!":
            for value in (-1, 2 ** 16, 2 ** 32, 2 ** 64):
                out.append(attempt(lambda: struct.pack(order + code, value)))
    for fmt, value in (("e", 65520), ("e", 65520.0), ("<f", 1e300), ("f", 1e300), ("<f", 2 ** 200),
                       ("d", "1.5"), ("c", b"ab"), ("3s", "abc")):
        out.append(attempt(lambda: struct.pack(fmt, value)))
    buffer = bytearray(4)
    out.append(attempt(lambda: struct.pack_into("<h", buffer, 0, 2 ** 15)))
    return out
