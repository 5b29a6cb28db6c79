import re

PHONE = re.compile(r"""
    ^\s*
    (?:\+?(\d{1,3})[\s.-]?)?   # country code
    \(?(\d{3})\)?              # area code
    [\s.-]?
    (\d{3})                    # exchange
    [\s.-]?
    (\d{4})                    # line number
    \s*$
""", re.VERBOSE)


def run():
    out = []
    for s in ["555-123-4567", "(555) 123 4567", "+1 555.123.4567", "5551234567", "55-123-4567", "555 1234 567"]:
        m = PHONE.match(s)
        out.append(m.groups() if m else None)
    out.append(bool(re.match(r"a b # comment", "ab", re.X)))
    out.append(bool(re.match(r"a\ b", "a b", re.X)))
    out.append(bool(re.match(r"a[ ]b", "a b", re.X)))
    return out
