from enum import Enum


class Suit(Enum):
    HEARTS = "h"
    SPADES = "s"
    CLUBS = "c"


PRICES = {Suit.HEARTS: 3, Suit.SPADES: 5}


def run():
    counts = {}
    for s in [Suit.CLUBS, Suit.HEARTS, Suit.CLUBS, Suit("s")]:
        counts[s] = counts.get(s, 0) + 1
    out = [
        {k.name: v for k, v in counts.items()},
        PRICES[Suit("h")],
        PRICES.get(Suit.CLUBS, 0),
        Suit.HEARTS in PRICES,
        "h" in PRICES,
        sorted(s.name for s in {Suit.HEARTS, Suit.HEARTS, Suit.SPADES}),
        Suit.HEARTS == "h",
        Suit.HEARTS != Suit.SPADES,
    ]
    try:
        Suit.HEARTS < Suit.SPADES
    except TypeError as e:
        out.append(str(e))
    out.append(sorted(Suit, key=lambda s: s.value)[0].name)
    return out
