class Amount:
    def __init__(self, cents, currency="USD"):
        self.cents = cents
        self.currency = currency

    def __format__(self, spec):
        if spec == "":
            return str(self)
        if spec == "code":
            return f"{self.cents // 100}.{self.cents % 100:02d} {self.currency}"
        return format(self.cents / 100, spec)

    def __str__(self):
        return f"${self.cents // 100}.{self.cents % 100:02d}"


class NoFormat:
    def __repr__(self):
        return "NoFormat()"


def run():
    a = Amount(12345)
    out = [f"{a}", f"{a:code}", f"{a:>10.1f}", format(a, ".3f"), "{:code}".format(a), "{0}".format(a)]
    out.append(format(NoFormat(), ""))
    try:
        format(NoFormat(), "10")
    except TypeError as e:
        out.append(str(e))
    out.append(f"{NoFormat()!s:>12}")
    return out
