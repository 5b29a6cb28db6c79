from enum import Enum

class Suit(Enum):
    HEARTS = "h"
    SPADES = "s"

def run():
    return [str(Suit.HEARTS), repr(Suit.SPADES), Suit("s").name, Suit.HEARTS.value]
