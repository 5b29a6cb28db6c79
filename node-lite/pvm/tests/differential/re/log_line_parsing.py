import re

LOG = re.compile(
    r"(?P<ip>\d{1,3}(?:\.\d{1,3}){3}) - - \[(?P<ts>[^\]]+)\] "
    r'"(?P<method>[A-Z]+) (?P<path>\S+) HTTP/[\d.]+" (?P<status>\d{3}) (?P<size>\d+|-)'
)


def run():
    lines = [
        '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
        '10.0.0.5 - - [11/Oct/2000:01:02:03 +0000] "POST /api/v1/items?id=3 HTTP/1.1" 201 -',
        'garbage line',
    ]
    out = []
    for line in lines:
        m = LOG.match(line)
        if m:
            d = m.groupdict()
            d["status"] = int(d["status"])
            d["size"] = 0 if d["size"] == "-" else int(d["size"])
            out.append(d)
        else:
            out.append(None)
    return out
