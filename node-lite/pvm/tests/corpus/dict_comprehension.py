def run():
    words = ["apple", "bob", "cat", "apple", "dog", "cat"]
    counts = {w: words.count(w) for w in words}
    inv = {v: k for k, v in {"a": 1, "b": 2}.items()}
    return [counts, inv, {i: i * i for i in range(6) if i % 2}]
