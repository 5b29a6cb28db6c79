# refused: forbidden-builtin
def run():
    return [memoryview(b"\xde\xad").hex(), memoryview(b"\xde\xad\xbe\xef")[1:3].hex(":")]
