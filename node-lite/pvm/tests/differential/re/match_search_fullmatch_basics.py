import re


def run():
    out = []
    for pat, s in [(r"\d+", "123abc"), (r"\d+", "abc123"), (r"\d+", "123"), (r"[a-z]+", "")]:
        m1 = re.match(pat, s)
        m2 = re.search(pat, s)
        m3 = re.fullmatch(pat, s)
        out.append([
            m1.group() if m1 else None,
            m2.group() if m2 else None,
            m3.group() if m3 else None,
        ])
    out.append(re.match(r"a*", "bbb").group())
    out.append(re.fullmatch(r"a|ab", "ab").group())
    out.append(re.match(r"a|ab", "ab").group())
    return out
