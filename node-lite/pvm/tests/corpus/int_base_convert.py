def to_base(n, b):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    out = ""
    while n:
        n, r = divmod(n, b)
        out = digits[r] + out
    return out

def run():
    return [to_base(255, 2), to_base(255, 16), to_base(123456789, 36), int(to_base(123456789, 36), 36)]
