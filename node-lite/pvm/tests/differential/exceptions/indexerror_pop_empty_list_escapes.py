def run():
    stack = [1]
    stack.pop()
    return stack.pop()
