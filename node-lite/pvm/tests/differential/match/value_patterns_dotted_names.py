class Op:
    MINT = "mint"
    BURN = "burn"
    LIMIT = 100


class Codes:
    class Http:
        OK = 200
        NOT_FOUND = 404


def handle(op, code):
    match op:
        case Op.MINT:
            kind = "minting"
        case Op.BURN:
            kind = "burning"
        case _:
            kind = "unknown"
    match code:
        case Codes.Http.OK:
            status = "ok"
        case Codes.Http.NOT_FOUND:
            status = "missing"
        case Op.LIMIT:
            status = "limit"
        case _:
            status = "error"
    return [kind, status]


def run():
    return [handle("mint", 200), handle("burn", 404), handle("swap", 100), handle("MINT", 500)]
