def run():
    return repr([round(2.675, 2), round(0.5), round(1.5), round(2.5), round(-2.5), round(3.14159, 3), int(round(7.5)), round(1234.5678, -2)])
