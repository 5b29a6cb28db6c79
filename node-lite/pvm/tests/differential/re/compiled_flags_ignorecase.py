import re


def run():
    p = re.compile(r"hello\s+(world)", re.IGNORECASE)
    out = [
        bool(p.search("HeLLo   WORLD")),
        p.search("say HELLO world").group(1),
        p.flags & re.IGNORECASE != 0,
        re.findall(r"[a-c]+", "ABCabcXYZ", re.I),
        re.sub(r"cat", "dog", "Cat CAT cat", flags=re.I),
        bool(re.match(r"(?i)straße", "STRASSE")),
        bool(re.match(r"(?i)σ", "Σ")),
        bool(re.match(r"(?i)k", "\u212a")),
        bool(re.match(r"(?i:abc)d", "ABCd")),
        bool(re.match(r"(?i:abc)d", "ABCD")),
    ]
    return out
