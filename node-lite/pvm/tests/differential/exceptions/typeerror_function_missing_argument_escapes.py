def transfer(sender, recipient, amount):
    return (sender, recipient, amount)


def run():
    return transfer("alice", "bob")
