from dataclasses import dataclass, field


@dataclass
class Transfer:
    sender: str
    recipient: str
    amount: int
    memo: str = ""


@dataclass
class Mint:
    to: str
    amount: int
    tags: list = field(default_factory=list)


def apply(event):
    match event:
        case Transfer(s, r, 0):
            return f"noop transfer {s}->{r}"
        case Transfer(s, r, amt, memo="") if amt > 100:
            return f"large transfer {amt}"
        case Transfer(sender=s, amount=amt, memo=m) if m:
            return f"{s} sent {amt} with memo {m}"
        case Transfer(s, r, amt):
            return f"{s}->{r}:{amt}"
        case Mint(to, amt, [first, *_]):
            return f"mint {amt} to {to} tagged {first}"
        case Mint(to, amt):
            return f"mint {amt} to {to}"


def run():
    return [apply(Transfer("a", "b", 0)), apply(Transfer("a", "b", 500)),
            apply(Transfer("a", "b", 5, "rent")), apply(Transfer("a", "b", 5)),
            apply(Mint("c", 9, ["airdrop", "x"])), apply(Mint("c", 9)),
            apply("nothing"), apply(Transfer("a", "b", 101, "x")), apply(Transfer(amount=7, recipient="r", sender="s"))]
