def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def store(buf, index, value):
    buf[index] = value
    return bytes(buf)


def run():
    ba = bytearray(b"hello")
    ba[0] = 72
    ba.append(33)
    ba.extend(b"??")
    ba.extend([65, 66])
    s1 = bytes(ba)
    ba[1:3] = b"EY"
    ba[-2:] = b""
    ba.insert(0, 62)
    popped = ba.pop()
    ba.remove(ord("!"))
    s2 = bytes(ba)
    del ba[::2]
    s3 = bytes(ba)
    ba += b"++"
    ba *= 2
    return [s1, s2, popped, s3, bytes(ba), len(ba),
            attempt(lambda: store(ba, 0, 256)),
            attempt(lambda: store(ba, 0, b"a")),
            attempt(lambda: store(bytearray(b"xy"), -1, 0x7a)),
            attempt(lambda: bytearray(b"").pop()),
            attempt(lambda: bytearray(b"a").remove(9)),
            bytes(bytearray(3)), bytes(bytearray([1, 2])), bytes(bytearray("hé", "utf-8")),
            bytes(bytearray(b"x").zfill(3)), bytearray(b"abc") == b"abc",
            type(bytearray(b"ab") + b"cd").__name__, type(b"ab" + bytearray(b"cd")).__name__]
