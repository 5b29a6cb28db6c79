import re


def run():
    combined = re.I | re.M
    return [
        int(re.I), int(re.M), int(re.S), int(re.X), int(re.A), int(re.U),
        int(combined),
        re.IGNORECASE == re.I,
        int(re.compile("a", re.I | re.S).flags),
        int(re.compile("a").flags),
        int(re.compile(b"a").flags),
        int(re.compile("a", re.A).flags),
        re.I.name,
        bool(combined & re.M),
    ]
