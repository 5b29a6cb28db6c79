def run():
    return [
        "  \t hello \n ".strip(),
        "xxhelloyxx".strip("xy"),
        "www.example.com".strip("cmowz."),
        "www.example.com".lstrip("w."),
        "www.example.com".rstrip(".moc"),
        "0001200".lstrip("0"),
        "0001200".rstrip("0"),
        "abc".strip(""),
        "\u3000wide\u00a0".strip(),
        "  x  ".strip(None),
        "--==--".strip("-="),
        "ab\u0301".strip("\u0301"),
    ]
