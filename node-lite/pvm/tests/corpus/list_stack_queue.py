def run():
    stack = []
    for i in range(5):
        stack.append(i)
    popped = [stack.pop() for _ in range(3)]
    queue = list(range(5))
    served = []
    while queue:
        served.append(queue.pop(0))
    return [stack, popped, served]
