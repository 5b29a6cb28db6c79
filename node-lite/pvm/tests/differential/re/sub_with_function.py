import re


def double(m):
    return str(int(m.group()) * 2)


def mask(m):
    user, domain = m.group("user"), m.group("domain")
    return user[0] + "*" * (len(user) - 1) + "@" + domain


def run():
    calls = []

    def record(m):
        calls.append((m.group(), m.start()))
        return m.group().upper()

    return [
        re.sub(r"\d+", double, "a1 b22 c333"),
        re.sub(r"(?P<user>\w+)@(?P<domain>[\w.]+)", mask, "contact alice@ex.com or bob@ex.org"),
        re.subn(r"[aeiou]", record, "education"),
        calls,
        re.sub(r"\w+", lambda m: m.group()[::-1], "abc def", count=1),
    ]
