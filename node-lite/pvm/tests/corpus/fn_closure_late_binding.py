def run():
    fs = []
    for i in range(3):
        fs.append(lambda: i)
    gs = [lambda j=j: j for j in range(3)]
    return [[f() for f in fs], [g() for g in gs]]
