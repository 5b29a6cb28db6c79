def mint(to, amount):
    return (to, amount)


def run():
    return mint(to="alice", amont=5)
