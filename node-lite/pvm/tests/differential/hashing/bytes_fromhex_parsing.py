def attempt(s):
    try:
        return bytes.fromhex(s)
    except ValueError as e:
        return [type(e).__name__, str(e)]


def run():
    return [
        attempt("deadbeef"),
        attempt("DE AD BE EF"),
        attempt("  00ff  "),
        attempt(""),
        attempt("0"),
        attempt("0g"),
        attempt("de:ad"),
        attempt("d e"),
        attempt("00\n11\t22"),
        bytes(bytearray.fromhex("ab cd")),
        type(bytearray.fromhex("ab")).__name__ == "bytearray",
    ]
