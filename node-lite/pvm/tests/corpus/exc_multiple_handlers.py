def classify(v):
    try:
        return [1, 2, 3][v] * 10 // (v - 1)
    except (IndexError, TypeError) as e:
        return "bad:" + type(e).__name__
    except ZeroDivisionError:
        return "zero"

def run():
    return [classify(0), classify(1), classify(2), classify(7), classify("x")]
