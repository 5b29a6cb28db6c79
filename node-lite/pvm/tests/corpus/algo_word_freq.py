def run():
    text = "the rain in spain falls mainly on the plain in spain"
    freq = {}
    for w in text.split():
        freq[w] = freq.get(w, 0) + 1
    top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    return top
