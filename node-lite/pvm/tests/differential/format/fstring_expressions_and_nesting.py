def run():
    d = {"k": 5, "q": "quote"}
    vals = [3, 1, 2]
    n = 7
    return [
        f"{d['k']}",
        f'{d["q"]!r}',
        f"{sorted(vals)}",
        f"{'yes' if n > 5 else 'no'}",
        f"{n:{'>'}{n}}",
        f"{{literal}} {n}",
        f"{{{n}}}",
        f"{[i * i for i in range(4)]}",
        f"{(lambda a: a + 1)(n)}",
        f"{n!r:>{n - 3}}",
        f"""{n
            + 1}""",
        f"{', '.join(str(v) for v in vals)}",
        f"{n:,}{'%'}",
        f"{3.0 * n:.{n - 5}f}",
    ]
