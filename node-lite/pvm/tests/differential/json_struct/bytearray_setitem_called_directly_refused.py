# refused: dunder-attribute
def run():
    ba = bytearray(b"hello")
    ba.__setitem__(0, 72)
    try:
        ba.__setitem__(0, 256)
    except ValueError as e:
        return [bytes(ba), str(e)]
