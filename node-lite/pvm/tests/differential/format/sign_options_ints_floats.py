def run():
    out = []
    for spec in ("+", "-", " ", ""):
        out.append([format(42, spec), format(-42, spec), format(0, spec),
                    format(3.5, spec + ".1f"), format(-3.5, spec + ".1f"), format(0.0, spec + "f")])
    out.append("{:+d} {: d} {:-d}".format(7, 7, 7))
    out.append(f"{-0.0:+.2f}")
    out.append(f"{5:=+6}")
    out.append(f"{-5:0=6}")
    out.append(f"{-5:*<+6}")
    return out
