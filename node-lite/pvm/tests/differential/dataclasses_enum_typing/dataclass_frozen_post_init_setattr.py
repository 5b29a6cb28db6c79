from dataclasses import dataclass, field


@dataclass(frozen=True)
class Money:
    amount: int
    currency: str = "usd"
    display: str = field(init=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "currency", self.currency.upper())
        object.__setattr__(self, "display", f"{self.amount} {self.currency}")


@dataclass(frozen=True)
class Broken:
    x: int

    def __post_init__(self):
        self.x = self.x + 1


def run():
    m = Money(5)
    out = [m.currency, m.display, repr(m), m == Money(5, "USD"), len({m, Money(5, "usd")})]
    try:
        Broken(1)
    except AttributeError as e:
        out.append([type(e).__name__, str(e)])
    return out
