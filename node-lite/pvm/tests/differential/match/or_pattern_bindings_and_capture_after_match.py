def normalize(event):
    match event:
        case ("credit", amount) | ("deposit", amount):
            return amount
        case ("debit", amount) | {"debit": amount}:
            return -amount
        case [("fee" | "tax") as kind, amount, *_]:
            return [kind, -amount]
        case _:
            return 0


def run():
    out = [normalize(e) for e in [("credit", 5), ["deposit", 7], ("debit", 3),
                                  {"debit": 4}, ["tax", 2, "note"], ("fee", 1), ("refund", 9)]]
    match {"who": "ann", "amount": 10}:
        case {"who": who, "amount": amount}:
            pass
    match [1, [2, 3]]:
        case [a, [b, c]] if a < b < c:
            ordered = True
    out.append([who, amount, a, b, c, ordered])
    return out
