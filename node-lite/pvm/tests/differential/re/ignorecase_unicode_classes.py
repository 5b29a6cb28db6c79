import re


def run():
    return [
        re.findall(r"[a-z]+", "ABC déf ÀÉ", re.I),
        re.findall(r"[à-ÿ]+", "ÀÉÎ àéî", re.I),
        bool(re.fullmatch(r"s", "\u017f", re.I)),
        bool(re.fullmatch(r"s", "\u017f", re.I | re.A)),
        bool(re.fullmatch(r"i", "\u0130", re.I)),
        bool(re.fullmatch(r"[k]", "\u212a", re.I)),
        re.findall(r"ω", "ΩωΩ", re.I),
        re.sub(r"é", "e", "ÉéE", flags=re.I),
        bool(re.fullmatch(r"ǅ", "ǆ", re.I)),
    ]
