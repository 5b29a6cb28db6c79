def run():
    s = "Hello, World"
    return [s.lower(), s.upper(), s.swapcase(), s.title(), len(s), s[::-1], s[2:8], s[-3:]]
