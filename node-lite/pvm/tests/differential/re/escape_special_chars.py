import re


def run():
    raw = "1+1=2? (yes) [maybe] {x} a.b*c^d$e|f\\g"
    esc = re.escape(raw)
    return [
        esc,
        bool(re.fullmatch(esc, raw)),
        re.escape("hello_world 123"),
        re.escape("tab\there"),
        re.escape("ünïcödé"),
        re.escape("a-b#c&d~e"),
        re.escape(b"a.b"),
        re.findall(re.escape("$5.00"), "cost $5.00 or $5x00"),
    ]
