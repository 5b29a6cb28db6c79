def run():
    name = "report_2024.csv"
    out = [
        name.startswith("report"),
        name.startswith(("data", "report")),
        name.endswith((".csv", ".tsv")),
        name.endswith(".CSV"),
        name.startswith("2024", 7),
        name.startswith("2024", 7, 9),
        name.endswith("report", 0, 6),
        name.startswith(""),
        name.endswith("", 100),
        name.startswith(()),
        "".startswith(""),
    ]
    try:
        name.startswith(["report"])
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    try:
        out.append(name.endswith((".tsv", 1)))
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    return out
