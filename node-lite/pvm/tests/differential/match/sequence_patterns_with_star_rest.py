def shape(seq):
    match seq:
        case []:
            return ["empty"]
        case [x]:
            return ["one", x]
        case [first, second]:
            return ["two", first, second]
        case [first, *middle, last]:
            return ["many", first, middle, last]


def heads(seq):
    match seq:
        case [0, *_]:
            return "starts with zero"
        case [*_, 0]:
            return "ends with zero"
        case [*rest]:
            return ["rest", rest, type(rest).__name__]


def run():
    return [shape([]), shape([1]), shape((1, 2)), shape([1, 2, 3, 4]), shape(range(3)),
            heads([0, 5]), heads((5, 0)), heads((1, 2)), heads([])]
