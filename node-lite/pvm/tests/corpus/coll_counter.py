from collections import Counter

def run():
    c = Counter("abracadabra")
    return [c.most_common(3), c["a"], c["z"], sorted(c.elements())[:5], sorted((c + Counter("aaz")).items())]
