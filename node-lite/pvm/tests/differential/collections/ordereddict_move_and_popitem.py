from collections import OrderedDict


def run():
    od = OrderedDict.fromkeys("abcde")
    od.move_to_end("b")
    s1 = "".join(od)
    od.move_to_end("d", last=False)
    s2 = "".join(od)
    last = od.popitem()
    first = od.popitem(last=False)
    s3 = "".join(od)
    try:
        od.move_to_end("zz")
        err = None
    except KeyError as e:
        err = [type(e).__name__, str(e)]
    empty = OrderedDict()
    try:
        empty.popitem()
        err2 = None
    except KeyError as e:
        err2 = [type(e).__name__, str(e)]
    return [s1, s2, list(last), list(first), s3, err, err2]
