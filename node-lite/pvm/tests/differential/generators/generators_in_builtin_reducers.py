def run():
    balances = {"alice": 30, "bob": 0, "carol": 12, "dave": 7}
    checked = []

    def positive(name):
        checked.append(name)
        return balances[name] > 0

    any_zero = any(v == 0 for v in balances.values())
    all_pos = all(positive(n) for n in balances)
    return [
        sum(v for v in balances.values() if v > 5),
        sum((v for v in balances.values()), 100),
        any_zero,
        all_pos,
        checked,
        min(balances, key=lambda n: balances[n]),
        max((v, n) for n, v in balances.items()),
        min((x for x in []), default="empty"),
        any(x for x in []),
        all(x for x in []),
        sorted(n for n in balances if len(n) > 3),
    ]
