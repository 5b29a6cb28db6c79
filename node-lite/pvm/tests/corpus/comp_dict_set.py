def run():
    return [{k: v for k, v in zip("abc", range(3))}, sorted({x % 4 for x in range(20)}), {x: [y for y in range(x)] for x in range(4)}]
