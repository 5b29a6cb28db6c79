import json


def attempt(text):
    try:
        return ["ok", json.loads(text)]
    except json.JSONDecodeError as e:
        return [type(e).__name__, str(e), e.msg, e.pos, e.lineno, e.colno]


def run():
    return [
        attempt(""),
        attempt("{"),
        attempt('{"a": 1,}'),
        attempt("[1, 2"),
        attempt("{'a': 1}"),
        attempt('{"a" 1}'),
        attempt("[1]\n  x"),
        attempt("tru"),
        attempt('"unterminated'),
        attempt('"bad \\x escape"'),
        attempt('"ctrl \x01 char"'),
        attempt("01"),
        attempt("[1,\n2,\n]"),
        issubclass(json.JSONDecodeError, ValueError),
    ]
