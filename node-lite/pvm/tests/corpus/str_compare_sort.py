def run():
    words = ["banana", "Apple", "cherry", "apple", "Banana"]
    return [sorted(words), sorted(words, key=str.lower), max(words), min(words), "a" < "b", "Z" < "a"]
