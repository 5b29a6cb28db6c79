import re


def run():
    data = b"GET /index.html HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n"
    m = re.match(rb"(\w+) (\S+) HTTP/(\d)\.(\d)", data)
    headers = dict(re.findall(rb"^([\w-]+):\s*(.*?)\r$", data, re.M))
    out = [
        m.groups(),
        headers,
        re.sub(rb"\d", b"#", b"a1b2"),
        re.split(rb"\r\n", data)[:3],
        re.findall(rb"\w+", "caf\u00e9".encode()),
        re.findall(rb"[\x80-\xff]+", "caf\u00e9".encode()),
        bool(re.match(rb"(?i)host", b"HOST")),
    ]
    for pat, s in [(r"a", b"a"), (rb"a", "a")]:
        try:
            re.search(pat, s)
        except TypeError as e:
            out.append([type(e).__name__, str(e)])
    return out
