def run():
    m = [[1, 2, 3], [4, 5, 6]]
    return [[[row[i] for row in m] for i in range(3)], [x for row in m for x in row if x % 2], sum(x for row in m for x in row)]
