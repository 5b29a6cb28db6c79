def run():
    return [
        "42".zfill(5),
        "-42".zfill(5),
        "+42".zfill(5),
        "--42".zfill(6),
        "42".zfill(1),
        "".zfill(3),
        "-".zfill(3),
        "abc".zfill(6),
        "3.14".zfill(7),
        "-0x1f".zfill(8),
        "٣".zfill(3),
    ]
