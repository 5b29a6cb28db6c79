def hanoi(n, a, b, c, moves):
    if n == 0:
        return
    hanoi(n - 1, a, c, b, moves)
    moves.append((a, c))
    hanoi(n - 1, b, a, c, moves)

def run():
    moves = []
    hanoi(5, "A", "B", "C", moves)
    return [len(moves), moves[:4]]
