# refused: forbidden-builtin
def run():
    return b"".join([bytearray(b"x"), b"y", memoryview(b"z")])
