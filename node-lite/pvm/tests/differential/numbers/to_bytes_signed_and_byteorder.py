def run():
    out = [
        (1024).to_bytes(2, "big"),
        (1024).to_bytes(2, "little"),
        (-1).to_bytes(2, "big", signed=True),
        (-128).to_bytes(1, "big", signed=True),
        (255).to_bytes(4, byteorder="little"),
        (0).to_bytes(0, "big"),
        (65).to_bytes(),
    ]
    for args in (((256), 1, "big", False), ((-1), 1, "big", False), ((128), 1, "big", True)):
        try:
            args[0].to_bytes(args[1], args[2], signed=args[3])
        except OverflowError as e:
            out.append([type(e).__name__, str(e)])
    return out
