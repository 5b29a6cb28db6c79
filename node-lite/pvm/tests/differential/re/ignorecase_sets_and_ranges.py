import re


def run():
    texts = "Straße STRASSE ſtraße ǅemal ǆemal Ĳssel ĳssel KELVIN \u212aelvin ΣΑΣ σας"
    return [
        re.findall(r"[a-zß]+", texts, re.I),
        re.findall(r"[^a-z ]+", texts, re.I),
        re.findall(r"[ǆ]\w+", texts, re.I),
        re.findall(r"[K]\w+", texts, re.I),
        re.findall(r"σ", texts, re.I),
        re.findall(r"[Σ]", texts, re.I),
        re.findall(r"ĳ\w+", texts, re.I),
        re.findall(r"[\u0100-\u017f]", "Āā ſ s İ ı", re.I),
        re.findall(r"[0-9]+", "A1B22", re.I),
        bool(re.fullmatch(r"[^k]", "\u212a", re.I)),
        bool(re.fullmatch(r"\u00b5", "\u03bc", re.I)),
        bool(re.fullmatch(r"[\u00b5]", "\u039c", re.I)),
        re.findall(r"(?i)[a-f]+", "BEEF cafe 0xDEAD"),
        re.findall(r"(?ai)[a-z]+", "ſKelvin \u212a"),
    ]
