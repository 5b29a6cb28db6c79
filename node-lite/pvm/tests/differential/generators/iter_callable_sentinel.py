def run():
    queue = [5, 3, 0, 8]

    def take():
        return queue.pop(0)

    before_zero = list(iter(take, 0))
    remaining = list(queue)
    counter = [0]

    def tick():
        counter[0] += 1
        return counter[0]

    ticks = list(iter(tick, 4))
    chunks = []
    data = "abcdefg"
    pos = [0]

    def read3():
        chunk = data[pos[0]:pos[0] + 3]
        pos[0] += 3
        return chunk

    for chunk in iter(read3, ""):
        chunks.append(chunk)
    return [before_zero, remaining, ticks, chunks]
