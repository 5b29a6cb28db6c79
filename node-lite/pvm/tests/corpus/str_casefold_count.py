def run():
    text = "Mississippi River"
    counts = {}
    for c in text.casefold():
        counts[c] = counts.get(c, 0) + 1
    return sorted(counts.items())
