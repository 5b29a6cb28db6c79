def run():
    s = "caf\u00e9 \u2603"
    b = s.encode("utf-8")
    return [list(b), b.decode("utf-8") == s, len(b), "abc".encode().hex(), bytes.fromhex("6869").decode()]
