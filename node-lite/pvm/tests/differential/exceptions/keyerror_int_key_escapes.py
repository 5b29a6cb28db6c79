def run():
    blocks = {1: "genesis", 2: "second"}
    seen = [blocks[k] for k in (1, 2)]
    seen.append(blocks[42])
    return seen
