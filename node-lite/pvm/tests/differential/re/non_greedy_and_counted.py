import re


def run():
    s = "<a><b></b></a>"
    return [
        re.match(r"<.*>", s).group(),
        re.match(r"<.*?>", s).group(),
        re.findall(r"a{2,3}", "aaaaaaa"),
        re.findall(r"a{2,3}?", "aaaaaaa"),
        re.findall(r"a{2}", "aaaaa"),
        re.findall(r"a{,2}", "aaa"),
        re.findall(r"a{2,}", "a aa aaaa"),
        re.match(r"a+?b*?", "aaabbb").group(),
        re.match(r"(a|ab)(c|bcd)", "abcd").groups(),
        re.findall(r"x{1}y{0}", "xyx"),
        re.findall(r"\d{3}", "12345678"),
    ]
