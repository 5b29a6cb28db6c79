def run():
    out = []
    for i in range(20):
        out.append(str(i * i))
    s = ",".join(out)
    acc = ""
    for ch in "loop":
        acc += ch.upper()
    return [s, acc, len(s)]
