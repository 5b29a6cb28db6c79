import re


def run():
    text = "café naïve 123 ٣٤ ﬁ_x\u00a0end"
    return [
        re.findall(r"\w+", text),
        re.findall(r"\w+", text, re.ASCII),
        re.findall(r"\d+", text),
        re.findall(r"\d+", text, re.A),
        re.split(r"\s+", text),
        re.split(r"\s+", text, flags=re.A),
        re.findall(r"\b\w", "über straße"),
        re.findall(r"\b\w", "über straße", re.A),
        re.findall(r"(?a)\w+", "déjà vu"),
    ]
