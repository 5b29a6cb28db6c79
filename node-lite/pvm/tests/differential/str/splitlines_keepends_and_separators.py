def run():
    text = "line1\nline2\r\nline3\rline4\x0bline5\x0cline6\x1cline7\x85line8\u2028line9\u2029end"
    return [
        text.splitlines(),
        text.splitlines(True),
        "a\n\nb\n".splitlines(),
        "a\n\nb\n".splitlines(keepends=True),
        "".splitlines(),
        "\n".splitlines(),
        "no newline".splitlines(),
        "a\r\n\r\nb".splitlines(),
        "x\n".split("\n"),
    ]
