# refused: complex-number
def run():
    return [repr(complex(1, 2) * 2), repr(complex("1+2j")), repr(abs(3 + 4j)), repr((1 + 2j).conjugate())]
