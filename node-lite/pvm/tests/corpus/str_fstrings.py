def run():
    name, n, f = "cowboy", 42, 0.125
    return [f"{name}!", f"{n:04d}", f"{f:.2%}", f"{n!r:>6}", f"{name.upper()}-{n + 1}", f"{'nested'}", f"{n=}"]
