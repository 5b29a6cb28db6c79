import re


def run():
    text = "v1.2 v3 v4.5.6 v7.8"
    tuples = re.findall(r"v(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    m = re.match(r"(\d+)(?:-(\d+))?", "42")
    nested = re.findall(r"((a)(b)?)", "ab a ab")
    return [
        tuples,
        m.groups(),
        m.groups("missing"),
        m.group(2),
        m.span(2),
        m.start(2),
        nested,
        m.groupdict(),
    ]
