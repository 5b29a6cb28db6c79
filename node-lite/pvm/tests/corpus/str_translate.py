def run():
    t = str.maketrans("abc", "xyz", "d")
    return ["aabbccdd".translate(t), "hello".translate({ord("l"): None}), "tab\there".expandtabs(4)]
