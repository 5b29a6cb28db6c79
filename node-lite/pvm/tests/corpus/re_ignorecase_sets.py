import re

def run():
    # Case-insensitive sets are translated at compile time, and again for fullmatch: their
    # translation is charged (issue 13's third review found it undercharged ~5x).
    pattern = "(?i)" + "[ab]" * 40 + "[a-z\u00e0-\u017f]" * 20
    text = "Ab" * 20 + "x\u00c9" * 10
    return [bool(re.search(pattern, text)), bool(re.fullmatch(pattern, text))]
