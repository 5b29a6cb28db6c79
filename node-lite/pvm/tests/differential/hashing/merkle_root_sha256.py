import hashlib


def h(data):
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def merkle_root(leaves):
    level = [h(x) for x in leaves]
    if not level:
        return b"\x00" * 32
    while len(level) > 1:
        if len(level) % 2:
            level.append(level[-1])
        level = [h(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def run():
    txs = [b"tx1", b"tx2", b"tx3", b"tx4", b"tx5"]
    return [
        merkle_root([]).hex(),
        merkle_root(txs[:1]).hex(),
        merkle_root(txs[:2]).hex(),
        merkle_root(txs).hex(),
        merkle_root(txs)[::-1].hex()[:16],
    ]
