import struct

def run():
    out = []
    for args in [(">B", 256), (">b", 1.5), (">H", -1)]:
        try:
            struct.pack(*args)
            out.append("ok")
        except struct.error:
            out.append("struct.error")
    return out
