def run():
    grid = [[r * 3 + c for c in range(3)] for r in range(3)]
    transposed = [list(row) for row in zip(*grid)]
    flat = [x for row in grid for x in row]
    diag = [grid[i][i] for i in range(3)]
    return [grid, transposed, flat, diag, sum(map(sum, grid))]
