def scan(tokens):
    out = []
    for tok in tokens:
        match tok:
            case "skip":
                continue
            case "stop":
                break
            case int(n) if n < 0:
                out.append("neg")
                continue
            case int(n):
                out.append(n * 2)
            case [*items]:
                out.extend(scan(items))
            case _:
                out.append("?" + str(tok))
        out.append("|")
    return out


def run():
    return [scan([1, "skip", -5, [2, "stop", 9], "x", "stop", 7]), scan([])]
