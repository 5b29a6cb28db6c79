def run():
    s = "\u00e9t\u00e9 \u00c5ngstr\u00f6m"
    return [s.upper(), s.lower(), len(s), [ord(c) for c in s[:3]], chr(9731), "\u00df".upper(), "\u0130".lower() == "i\u0307"]
