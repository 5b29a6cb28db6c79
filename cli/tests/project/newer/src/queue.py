"""A priority queue: uses heapq and an exception's __cause__, both allowed since PVM version 2."""

import heapq
from cowboy_sdk import actor


@actor
class Queue:
    def __init__(self):
        self.storage["items"] = []

    def push(self, item: int):
        items = self.storage["items"]
        heapq.heappush(items, item)
        self.storage["items"] = items

    def pop(self):
        items = self.storage["items"]
        try:
            item = heapq.heappop(items)
        except IndexError as e:
            raise ValueError("the queue is empty") from e.__cause__
        self.storage["items"] = items
        return item
