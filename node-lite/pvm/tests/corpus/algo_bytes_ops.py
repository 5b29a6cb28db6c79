def run():
    b = bytes(range(10))
    ba = bytearray(b"hello")
    ba[0] = ord("j")
    ba.extend(b"!!")
    return [b[2:5].hex(), list(b[::3]), bytes(ba).decode(), b"ab" * 2 == b"abab", b"x" in b"oxo", ba.find(b"l"), bytes([65, 66]).decode()]
