def run():
    samples = ["123", "²", "٣", "½", "Ⅻ", "一", "①", "", "12a", "-1", "1.5", "１２", "߀", "𝟘"]
    out = {}
    for s in samples:
        out[s] = [s.isdigit(), s.isdecimal(), s.isnumeric(), s.isalnum()]
    return out
