def execute(state, command):
    match command:
        case ("deposit", str(who), int(amount)) if amount > 0:
            state[who] = state.get(who, 0) + amount
            return "ok"
        case ("withdraw", str(who), int(amount)) if state.get(who, 0) >= amount:
            state[who] -= amount
            return "ok"
        case ("withdraw", str(who), int()):
            return f"insufficient funds for {who}"
        case ("transfer", src, dst, int(amount)):
            if state.get(src, 0) < amount:
                return "transfer rejected"
            state[src] -= amount
            state[dst] = state.get(dst, 0) + amount
            return "ok"
        case ("batch", *subcommands):
            return [execute(state, c) for c in subcommands]
        case (op, *args):
            return f"unknown op {op} with {len(args)} args"
        case _:
            return "malformed"


def run():
    state = {}
    log = [execute(state, c) for c in [
        ("deposit", "alice", 100),
        ("deposit", "bob", -5),
        ("withdraw", "alice", 30),
        ("withdraw", "bob", 1),
        ("transfer", "alice", "bob", 50),
        ("transfer", "bob", "carol", 80),
        ("batch", ("deposit", "carol", 1), ("freeze", "bob")),
        "deposit alice 5",
        (),
    ]]
    return [log, state]
