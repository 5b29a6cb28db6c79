def run():
    out = []
    for fmt in ("{!x}", "{!}", "{!rr}", "{0!r", "{!r:}", "{0:!r}"):
        try:
            out.append([fmt, fmt.format("v")])
        except ValueError as e:
            out.append([fmt, type(e).__name__, str(e)])
    return out
