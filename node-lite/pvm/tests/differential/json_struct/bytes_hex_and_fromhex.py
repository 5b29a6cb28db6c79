def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def run():
    data = b"\x00\x0f\xab\xff\x10"
    return [
        data.hex(), data.hex(":"), data.hex("-", 2), data.hex(" ", -2), data.hex("_", 10),
        bytearray(b"\xde\xad").hex(), b"\x00\xbe\xef"[1:].hex(),
        bytes.fromhex("deadbeef"), bytes.fromhex("de ad  be ef"), bytes.fromhex(""),
        bytes(bytearray.fromhex("0a0B")),
        attempt(lambda: bytes.fromhex("abc")),
        attempt(lambda: bytes.fromhex("zz")),
        bytes.fromhex(data.hex()) == data,
        b"\x01\x02".hex().upper(),
    ]
