def run():
    w, p = 10, 3
    x = 3.14159265
    return [
        "{:{w}.{p}f}".format(x, w=w, p=p),
        "{:{}.{}f}".format(x, 8, 2),
        "{0:{1}{2}}".format("hi", ">", 6),
        "{:{fill}{align}{width}}".format("mid", fill="*", align="^", width=9),
        f"{x:{w}.{p}f}",
        f"{x:{'>'}{w}.{p + 1}}",
        f"{'val':{'-'}^{w}}",
        "{:{}}".format(255, "#x"),
        f"{255:{'x' if w > 5 else 'd'}}",
        "{0:{width}} {0:{prec}}".format(2.5, width=6, prec=".3"),
    ]
