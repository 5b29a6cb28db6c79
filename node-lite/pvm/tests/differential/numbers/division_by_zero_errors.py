def run():
    out = []
    for f in (lambda: 1 // 0, lambda: 1 % 0, lambda: 1 / 0, lambda: divmod(5, 0),
              lambda: 1.0 / 0, lambda: 1.0 // 0.0, lambda: 5 % 0.0, lambda: 0 ** -1):
        try:
            f()
            out.append("no error")
        except ZeroDivisionError as e:
            out.append([type(e).__name__, str(e)])
    return out
