import re

def run():
    pat = re.compile(r"(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})")
    m = pat.match("2024-03-15 rest")
    return [m.group("year"), m.groupdict(), bool(pat.fullmatch("2024-03-15")), pat.fullmatch("2024-03-15x") is None]
