import copy


def run():
    orig = {"nums": [1, 2, [3, 4]], "meta": {"tag": "x"}, "t": (1, [2])}
    sh = copy.copy(orig)
    dp = copy.deepcopy(orig)
    sh["nums"][2].append(5)
    sh["meta"]["tag"] = "shallow"
    dp["t"][1].append(99)
    dp["nums"].append(6)
    lst = [[0] * 2] * 2
    lst_copy = copy.deepcopy(lst)
    lst_copy[0][0] = 7
    tup = (1, 2, "x")
    return [orig, sh is orig, sh["nums"] is orig["nums"], dp, lst_copy,
            copy.copy(tup) is tup, copy.deepcopy(tup) is tup,
            copy.deepcopy(orig["t"]) is orig["t"], list(lst), copy.copy([1, 2]) == [1, 2]]
