# refused: forbidden-builtin
def run():
    return [memoryview(b"\xbe\xef").hex(), memoryview(bytearray(b"\x00\x0f")).hex(":")]
