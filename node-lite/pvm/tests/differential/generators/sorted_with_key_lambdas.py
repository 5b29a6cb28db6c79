def run():
    accounts = [
        {"name": "carol", "balance": 50, "joined": 3},
        {"name": "alice", "balance": 50, "joined": 1},
        {"name": "bob", "balance": 75, "joined": 2},
        {"name": "Dave", "balance": 10, "joined": 4},
    ]
    by_balance_desc = [a["name"] for a in sorted(accounts, key=lambda a: -a["balance"])]
    stable = [a["name"] for a in sorted(accounts, key=lambda a: a["balance"], reverse=True)]
    multi = [a["name"] for a in sorted(accounts, key=lambda a: (-a["balance"], a["name"]))]
    case = sorted((a["name"] for a in accounts), key=str.lower)
    plain = sorted(a["name"] for a in accounts)
    words = sorted(["bb", "a", "ccc", "dd"], key=len)
    items = sorted({"x": 3, "y": 1, "z": 2}.items(), key=lambda kv: kv[1])
    lst = [3, 1, 2]
    lst.sort(key=lambda v: v % 3)
    return [by_balance_desc, stable, multi, case, plain, words,
            [list(kv) for kv in items], lst]
