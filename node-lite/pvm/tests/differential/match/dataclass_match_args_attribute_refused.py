# refused: dunder-attribute
from dataclasses import dataclass


@dataclass
class Transfer:
    sender: str
    recipient: str
    amount: int
    memo: str = ""


def run():
    return list(Transfer.__match_args__)
