def run():
    s = "the quick brown fox jumps over the lazy dog"
    return [s.find("fox"), s.rfind("the"), s.count("o"), s.replace("the", "a"), s.replace("o", "0", 2), s.index("dog")]
