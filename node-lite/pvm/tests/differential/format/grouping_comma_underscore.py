def run():
    return [
        format(1234567890, ","),
        format(-1234567, ","),
        format(999, ","),
        format(1000, ","),
        format(1234567890, "_"),
        format(0xDEADBEEF, "_x"),
        format(0b101010101, "_b"),
        format(0o1234567, "_o"),
        format(1234567.891, ",.2f"),
        format(1234567.891, "_.1f"),
        format(1234567.891, ","),
        format(12345678.9, ",e"),
        format(1234.5, ",g"),
        format(123456789, ">15,"),
        format(10 ** 20, ","),
        f"{1e6:,.0f}",
    ]
