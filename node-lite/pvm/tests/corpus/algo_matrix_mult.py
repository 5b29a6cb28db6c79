def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]

def run():
    a = [[1, 2], [3, 4]]
    r = [[1, 0], [0, 1]]
    for _ in range(10):
        r = matmul(r, a)
    return r
