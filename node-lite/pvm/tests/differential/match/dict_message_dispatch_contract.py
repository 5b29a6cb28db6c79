def handle(balances, msg):
    match msg:
        case {"op": "transfer", "to": str(to), "amount": int(amount)} if amount > 0:
            sender = msg.get("from", "owner")
            if balances.get(sender, 0) < amount:
                return {"error": "insufficient", "need": amount}
            balances[sender] -= amount
            balances[to] = balances.get(to, 0) + amount
            return {"ok": True}
        case {"op": "transfer", "amount": int(amount)} if amount <= 0:
            return {"error": "amount must be positive"}
        case {"op": "transfer"}:
            return {"error": "bad transfer"}
        case {"op": "balance", "of": who}:
            return {"balance": balances.get(who, 0)}
        case {"op": "batch", "msgs": [*msgs]}:
            return {"results": [handle(balances, m) for m in msgs]}
        case {"op": str(op)}:
            return {"error": "unknown op " + op}
        case _:
            return {"error": "malformed"}


def run():
    balances = {"owner": 100}
    msgs = [
        {"op": "transfer", "to": "bob", "amount": 40},
        {"op": "transfer", "to": "bob", "amount": 0},
        {"op": "transfer", "to": "bob", "amount": "5"},
        {"op": "transfer", "from": "bob", "to": "eve", "amount": 50},
        {"op": "balance", "of": "bob"},
        {"op": "batch", "msgs": [{"op": "balance", "of": "owner"}, {"op": "burn"}]},
        {"op": 7},
        ["op", "transfer"],
    ]
    return [[handle(balances, m) for m in msgs], balances]
