def run():
    return [
        round(1234, -2), round(1250, -2), round(1350, -2), round(-1250, -2),
        round(15, -1), round(25, -1), round(5, -1), round(7, 0), round(7),
        type(round(7, 1)).__name__, round(123456789, -5), round(-5, -1),
    ]
