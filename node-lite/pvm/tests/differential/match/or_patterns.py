def category(cmd):
    match cmd:
        case "quit" | "exit" | "q":
            return "leave"
        case ["go", ("north" | "south" | "east" | "west") as d]:
            return "move " + d
        case [("get" | "take"), item] | [item, "please"]:
            return "obtain " + item
        case 1 | 2 | 3:
            return "small number"
        case {"op": "add" | "sum"} | {"operation": "add"}:
            return "addition"
        case _:
            return "unknown"


def run():
    return [category(c) for c in ["quit", "q", ["go", "west"], ["go", "up"], ["take", "key"],
                                  ["lamp", "please"], 2, 4, {"op": "sum"},
                                  {"operation": "add", "x": 1}, {"op": "mul"}]]
