def run():
    words = ["banana", "Apple", "cherry", "apple", "Äpfel", "zebra", "Zoo", "éclair", "10", "9", ""]
    out = [
        sorted(words),
        sorted(words, key=str.lower),
        sorted(words, key=len),
        sorted(words, key=lambda w: (len(w), w), reverse=True),
        sorted(words, key=str.casefold)[:4],
        "apple" < "banana",
        "Zebra" < "apple",
        "abc" < "abcd",
        "" < "a",
        "a" < "á",
        max(words),
        min(words[:-1], key=len),
        "abc" == "abc" and "abc" != "ABC",
    ]
    for f in (lambda: "a" < 1, lambda: sorted(["a", 1])):
        try:
            out.append(f())
        except TypeError as e:
            out.append([type(e).__name__, str(e)])
    return out
