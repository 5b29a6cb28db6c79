def shift(s, k):
    out = []
    for c in s:
        if c.isalpha():
            base = ord("a") if c.islower() else ord("A")
            out.append(chr((ord(c) - base + k) % 26 + base))
        else:
            out.append(c)
    return "".join(out)

def run():
    msg = "Attack at Dawn!"
    enc = shift(msg, 13)
    return [enc, shift(enc, 13)]
