def run():
    data = [3, 8, 1, 9, 4]
    scaled = [y for x in data if (y := x * 10) > 35]
    last_y = y
    running = 0
    totals = [running := running + x for x in data]
    first_big = None
    if any((first_big := x) > 7 for x in data):
        found = first_big
    else:
        found = None
    lines = ["k=1", "bad", "z=26"]
    parsed = {p[0]: int(p[1]) for line in lines if len(p := line.split("=")) == 2}
    return [scaled, last_y, totals, running, found, parsed]
