from collections import deque

def run():
    graph = {"a": ["b", "c"], "b": ["d"], "c": ["d", "e"], "d": ["f"], "e": ["f"], "f": []}
    dist = {"a": 0}
    q = deque(["a"])
    while q:
        n = q.popleft()
        for m in graph[n]:
            if m not in dist:
                dist[m] = dist[n] + 1
                q.append(m)
    return dist
