import re

SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
URL = re.compile(r"^(?P<scheme>https?)://(?P<host>[^/:?#]+)(?::(?P<port>\d+))?(?P<path>/[^?#]*)?(?:\?(?P<query>[^#]*))?(?:#(?P<frag>.*))?$")


def run():
    out = []
    for v in ["1.2.3", "1.0.0-alpha.1+build.5", "01.2.3", "1.2", "10.20.30-rc1"]:
        m = SEMVER.match(v)
        out.append(m.groups() if m else None)
    for u in ["https://example.com:8080/a/b?x=1&y=2#top", "http://host", "ftp://nope.com"]:
        m = URL.match(u)
        out.append(m.groupdict() if m else None)
    return out
