import re

def run():
    m = re.search(r"(\w+)@(\w+)\.com", "contact: alice@example.com today")
    return [m.group(0), m.group(1), m.group(2), m.groups(), m.span(), m.start(2)]
