x = "module"


class Config:
    factor = 3
    values = [1, 2]
    doubled = [v * 2 for v in values]


def run():
    i = "outer"
    squares = [i * i for i in range(4)]
    funcs = [lambda: i for i in range(3)]
    funcs_bound = [lambda i=i: i for i in range(3)]
    total = 10
    adds = [total + n for n in range(2)]
    class_err = None
    try:
        class Broken:
            k = 5
            items = [k * n for n in range(2)]
    except NameError as e:
        class_err = str(e)
    return [i, squares, [f() for f in funcs], [f() for f in funcs_bound], adds,
            Config.doubled, class_err, x, {k: v for k, v in [("a", 1)]}]
