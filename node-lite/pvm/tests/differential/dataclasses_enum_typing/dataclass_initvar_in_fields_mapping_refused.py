# refused: dunder-attribute
from dataclasses import dataclass, field, InitVar


@dataclass
class Account:
    user: str
    password: InitVar[str]
    digest: str = field(init=False)

    def __post_init__(self, password):
        self.digest = password[::-1]


def run():
    return [repr(Account.__dataclass_fields__["password"].type), sorted(Account.__dataclass_fields__)]
