def run():
    src = ["apple", "bob", "kiwi", "banana", "fig"]
    lens = {w: len(w) for w in src}
    inv = {v: k for k, v in lens.items()}
    filt = {k: v for k, v in lens.items() if v > 3}
    d = {"one": 1, "two": 2, "three": 3}
    d["one"] = 100
    del d["two"]
    d["two"] = 2
    nested = {i: {j: i * j for j in range(i)} for i in range(1, 4)}
    keys_int = {1: "a", True: "b", 1.0: "c"}
    sq = [x * x for x in range(6) if x % 2]
    gen_sum = sum(x for x in range(5))
    matrix = [[r * 3 + c for c in range(3)] for r in range(2)]
    flat = [v for row in matrix for v in row]
    return [lens, inv, filt, list(d.items()), nested, keys_int, sq, gen_sum, matrix, flat,
            {x: x % 3 for x in range(6)} == dict(zip(range(6), [0, 1, 2, 0, 1, 2]))]
