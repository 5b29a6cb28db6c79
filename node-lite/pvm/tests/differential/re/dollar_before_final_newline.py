import re


def run():
    return [
        re.findall(r"$", "ab\ncd\n"),
        [m.span() for m in re.finditer(r"$", "ab\n")],
        re.search(r"(b$)", "ab\n").span(1),
        re.search(r"a\n?$", "a\n").span(),
        re.search(r"a\n??$", "a\n").span(),
        re.fullmatch(r"a$", "a\n"),
        re.fullmatch(r"a\n$", "a\n").span(),
        re.sub(r"x*$", "!", "abc\n"),
        re.split(r"\s*$", "ab  \n"),
        re.match(r"\w+$", "word\n").group(),
        re.search(r"(?:a$|b)", "ba\n").span(),
        re.search(r"\w+$", "one\ntwo\n", re.M).group(),
        re.compile(r"c$").search("abc\nx", 0, 4).span(),
    ]
