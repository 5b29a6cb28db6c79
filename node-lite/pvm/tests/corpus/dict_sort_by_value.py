def run():
    scores = {"ann": 88, "bob": 95, "cy": 70, "di": 95}
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    return [ranked, max(scores, key=scores.get), sorted(scores, key=len)]
