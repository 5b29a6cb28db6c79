def run():
    s = "abcdefgh"
    return [
        "{:.2}".format(s),
        "{:>10.3}".format(s),
        "{:<10.3}|".format(s),
        "{:^9.4}".format(s),
        "{:.0}|".format(s),
        "{:.20}".format(s),
        f"{s:.5s}",
        format(s, "*^7.3"),
        "{:.3}".format("日本語テキスト"),
        "%.3s" % s,
        "%-6.2s|" % s,
        "%8.4s" % s,
    ]
