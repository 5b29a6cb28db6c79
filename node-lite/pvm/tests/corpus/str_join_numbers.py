def run():
    return [" ".join(str(x) for x in range(5)), "".join(reversed("stressed")), "+".join(map(str, [1, 2, 3]))]
