import re

def run():
    return [bool(re.match("hello", "HELLO world", re.IGNORECASE)), re.findall(r"^\w+", "one\ntwo\nthree", re.MULTILINE), bool(re.search("a.b", "a\nb", re.DOTALL)), re.match("x", "yx") is None]
