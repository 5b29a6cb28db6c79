def describe(cmd):
    match cmd.split():
        case ["go", direction]:
            return "move " + direction
        case ["pick", "up", item]:
            return "take " + item
        case ["quit"] | ["exit"]:
            return "bye"
        case [first, *rest] if len(rest) > 2:
            return f"long:{first}:{len(rest)}"
        case _:
            return "unknown"

def run():
    return [describe(c) for c in ["go north", "pick up lamp", "exit", "a b c d", "hmm"]]
