import re

FIELD = re.compile(r'\s*(?:"((?:[^"]|"")*)"|([^,]*?))\s*(?:,|$)')


def parse(line):
    fields = []
    pos = 0
    while pos <= len(line):
        m = FIELD.match(line, pos)
        if m is None or m.end() == pos and pos == len(line) and fields:
            break
        quoted, plain = m.group(1), m.group(2)
        fields.append(quoted.replace('""', '"') if quoted is not None else plain)
        if m.end() == len(line) and not line.endswith(","):
            break
        pos = m.end()
    return fields


def run():
    return [
        parse('a,b,c'),
        parse(' 1 , "two, three" ,4'),
        parse('"he said ""hi""",x'),
        parse('x,,z'),
        parse('a,b,'),
    ]
