def run():
    out = []
    for value in [1, 2, "x"]:
        result = "unset"
        match value:
            case 1:
                result = "one"
            case str():
                result = "string"
        out.append(result)

    def returns_none(v):
        match v:
            case [_, _]:
                return "pair"

    out.append(returns_none([1]))
    out.append(returns_none([1, 2]))
    match 5:
        case 4:
            out.append("four")
    out.append("after unmatched match")
    return out
