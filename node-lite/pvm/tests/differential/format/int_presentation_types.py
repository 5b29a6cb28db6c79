def run():
    out = []
    for n in (0, 5, 255, -42, 65, 2 ** 40):
        out.append([format(n, "b"), format(n, "o"), format(n, "x"), format(n, "X"), format(n, "d"),
                    format(n, "n"), format(n, "")])
    out.append([format(65, "c"), format(0x263A, "c"), format(10, "c") == "\n", format(0x1F600, "c")])
    out.append(["{:c}".format(97), "%c" % 98, "%c" % "z"])
    return out
