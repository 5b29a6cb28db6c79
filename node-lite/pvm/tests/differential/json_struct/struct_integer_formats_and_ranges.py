import struct


def attempt(fmt, *vals):
    try:
        return ["ok", struct.pack(fmt, *vals)]
    except struct.error as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        attempt("<b", 127), attempt("<b", 128), attempt("<B", -1), attempt("<B", 256),
        attempt("<h", -32769), attempt("<H", 65536), attempt("<i", 2 ** 31),
        attempt("<I", -1), attempt("<q", 2 ** 63), attempt("<Q", 2 ** 64),
        attempt("<i", 1.5), attempt("<i", "7"), attempt("<?", 0),
        attempt("<q", -(2 ** 63)),
    ]
