from collections import OrderedDict

def run():
    od = OrderedDict()
    for k in "bca":
        od[k] = ord(k)
    od.move_to_end("b")
    first = od.popitem(last=False)
    return [list(od.items()), first]
