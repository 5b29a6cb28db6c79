# refused: complex-number
# CPython raises a negative number to a fractional power as a complex number
# ((-8) ** (1/3) == (1.0000000000000002+1.7320508075688772j)); the PVM has no complex numbers.
def run():
    return repr((-8) ** (1 / 3))
