def run():
    log = []

    def check(name, result):
        log.append(name)
        return result

    def route(value):
        match value:
            case int(n) if check("g1", n > 10):
                return "big"
            case int(n) if check("g2", n % 2 == 0):
                return "even"
            case str() if check("g3", True):
                return "string"
            case _ if check("g4", False):
                return "never"
            case _:
                return "default"

    results = []
    for v in [50, 4, 3, "s", None]:
        log.append(("value", v) if not isinstance(v, str) else ("value", v))
        results.append(route(v))
    return [results, [list(x) if isinstance(x, tuple) else x for x in log]]
