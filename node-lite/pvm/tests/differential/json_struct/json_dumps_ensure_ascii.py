import json


def run():
    s = "café ☕ 𝄞 \u0000 \t\"\\/"
    return [
        json.dumps(s),
        json.dumps(s, ensure_ascii=False),
        json.dumps({"ключ": "значение"}),
        json.dumps({"ключ": "значение"}, ensure_ascii=False),
        json.dumps("\x7f\x1f\u2028"),
        json.dumps("\x7f\x1f\u2028", ensure_ascii=False),
        json.dumps("emoji 😀"),
    ]
