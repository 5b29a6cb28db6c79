import re

EMAIL = re.compile(r"^[a-z0-9._]+@[a-z0-9]+\.[a-z]{2,}$")

def run():
    return [bool(EMAIL.match(s)) for s in ["a.b@c.io", "bad@", "x@y.z", "ok_1@dom.com"]]
