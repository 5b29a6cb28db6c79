def run():
    x = 10
    name = "bob"
    price = 2.5
    items = [1, 2]
    return [
        f"{x=}",
        f"{x = }",
        f"{name=}",
        f"{name=!s}",
        f"{price=:.2f}",
        f"{price=!r:>8}",
        f"{x * 2 + 1=}",
        f"{items[0]=}",
        f"{len(items)=}",
        f"{name.upper()=:>6}",
        f"{'é'=!a}",
        f"{x=}{name=}",
    ]
