import heapq


def run():
    data = [7, 3, 9, 1, 9, 4, 6]
    people = [("ann", 31), ("bob", 25), ("cid", 31), ("dan", 19), ("eve", 25)]
    return [
        heapq.nlargest(3, data),
        heapq.nsmallest(3, data),
        heapq.nlargest(0, data),
        heapq.nsmallest(10, data),
        heapq.nlargest(2, people, key=lambda p: p[1]),
        heapq.nsmallest(2, people, key=lambda p: p[1]),
        heapq.nlargest(1, [], key=abs),
        heapq.nsmallest(2, [-5, 3, -1, 4], key=abs),
        list(heapq.merge([1, 4, 9], [2, 3, 10], [5])),
        list(heapq.merge(["b", "d"], ["a", "c"], key=str.upper)),
        list(heapq.merge([9, 4, 1], [8, 2], reverse=True)),
        list(heapq.merge()),
    ]
