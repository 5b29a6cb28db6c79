import heapq


def run():
    h = []
    for x in [5, 1, 8, 3, 2, 9]:
        heapq.heappush(h, x)
    popped = [heapq.heappop(h) for _ in range(3)]
    data = [9, 4, 7, 1, 8, 2]
    heapq.heapify(data)
    smallest = data[0]
    pp = heapq.heappushpop(data, 0)
    pp2 = heapq.heappushpop(data, 5)
    rep = heapq.heapreplace(data, 100)
    drained = [heapq.heappop(data) for _ in range(len(data))]
    try:
        heapq.heappop([])
        err = None
    except IndexError as e:
        err = [type(e).__name__, str(e)]
    return [popped, h[0], smallest, pp, pp2, rep, drained, err]
