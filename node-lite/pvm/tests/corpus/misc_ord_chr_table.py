def run():
    return ["".join(chr(ord("a") + i) for i in range(26)), [ord(c) - 48 for c in "0129"], chr(0x1F600).encode("utf-8").hex()]
