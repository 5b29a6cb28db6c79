def run():
    ok = int("1_000")
    return ok + int("1_")
