def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]


def ext_assign(lst, val):
    lst[::2] = val
    return lst


def run():
    a = list(range(10))
    a[2:5] = ["x"]
    r = [list(a)]
    a[1:1] = [7, 8]
    r.append(list(a))
    a[-2:] = []
    r.append(list(a))
    b = list(range(10))
    b[::3] = [0, 0, 0, 0]
    r.append(b)
    c = list(range(10))
    del c[::2]
    r.append(c)
    e = list(range(10))
    del e[2:8:3]
    r.append(e)
    f = [1, 2, 3]
    f[5:] = [9]
    r.append(f)
    g = list(range(6))
    g[::-2] = "abc"
    r.append(g)
    r.append(attempt(lambda: ext_assign([1, 2, 3, 4], [0])))
    h = [1, 2, 3]
    h[:] = h[::-1]
    r.append(h)
    r.append(list(range(10))[8:2:-2])
    r.append(list(range(5))[-100:100])
    return r
