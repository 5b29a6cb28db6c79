import re

DATE = re.compile(r"(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})")


def run():
    m = DATE.search("Released on 2023-07-14 at noon")
    out = [
        m.group("year"), m.group("month"), m.group("day"),
        m.group(0), m.group(1, 3), m.groups(),
        m.groupdict(), m.span(), m.start("month"), m.end("day"),
        m.span(2), m.lastindex, m.lastgroup,
    ]
    out.append(list(DATE.groupindex.items()))
    out.append(DATE.groups)
    out.append(DATE.pattern)
    out.append(m.re.pattern == DATE.pattern)
    out.append(m.string)
    out.append((m.pos, m.endpos))
    return out
