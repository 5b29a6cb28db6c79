import copy


class Node:
    def __init__(self, val):
        self.val = val
        self.next = None


def run():
    shared = [1, 2]
    outer = [shared, shared, {"k": shared}]
    d = copy.deepcopy(outer)
    same_inside = d[0] is d[1] and d[1] is d[2]["k"]
    differs_from_orig = d[0] is not shared
    a = Node(1)
    b = Node(2)
    a.next = b
    b.next = a
    ca = copy.deepcopy(a)
    cyc = ca.next.next is ca
    selfref = []
    selfref.append(selfref)
    cs = copy.deepcopy(selfref)
    memo = {}
    x = [shared]
    copy.deepcopy(x, memo)
    return [same_inside, differs_from_orig, cyc, ca is not a, ca.next.val,
            cs[0] is cs, cs is not selfref, len(memo) > 0,
            copy.copy(a).next is b]
