import re


def run():
    html = "<p>one\ntwo</p><p>three</p>"
    return [
        re.findall(r"<p>(.*?)</p>", html),
        re.findall(r"<p>(.*?)</p>", html, re.DOTALL),
        re.findall(r"<p>(.*)</p>", html, re.S),
        re.match(r".+", "abc\ndef").group(),
        re.match(r"(?s).+", "abc\ndef").group(),
        re.findall(r".", "a\r\nb"),
        bool(re.match(r"a.c", "a\nc", re.S | re.M)),
    ]
