# refused: re-linear-time
import re

TAG = re.compile(r"^(<)?(\w+@\w+\.\w+)(?(1)>|)$")
QUOTE = re.compile(r"^(?P<q>\")?\w+(?(q)\")$")


def run():
    out = []
    for s in ["<user@host.com>", "user@host.com", "<user@host.com", "user@host.com>"]:
        m = TAG.match(s)
        out.append(m.group(2) if m else None)
    for s in ['"word"', "word", '"word', 'word"']:
        out.append(bool(QUOTE.match(s)))
    return out
