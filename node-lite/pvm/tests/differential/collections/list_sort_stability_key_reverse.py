def run():
    recs = [("bob", 3), ("amy", 1), ("cat", 3), ("dan", 2), ("eve", 1)]
    by_score = sorted(recs, key=lambda r: r[1])
    by_score_rev = sorted(recs, key=lambda r: r[1], reverse=True)
    two_pass = sorted(recs, key=lambda r: r[0], reverse=True)
    two_pass.sort(key=lambda r: r[1])
    words = ["Banana", "apple", "cherry", "Apple"]
    ci = sorted(words, key=str.lower)
    plain = sorted(words)
    lst = [3, 1, 2]
    ret = lst.sort()
    mixed = [(1, "b"), (1, "a"), (0, "z")]
    try:
        sorted([1, "a"])
        err = None
    except TypeError as e:
        err = [type(e).__name__, str(e)]
    return [by_score, by_score_rev, two_pass, ci, plain, ret, lst, sorted(mixed),
            sorted("hello", reverse=True), err, sorted([], key=len)]
