import dataclasses
from dataclasses import dataclass, field


@dataclass
class Base:
    name: str
    log: list = field(default_factory=list, repr=False)

    def __post_init__(self):
        self.name = self.name.strip()
        self.log.append("base")


@dataclass
class Child(Base):
    level: int = 1

    def __post_init__(self):
        super().__post_init__()
        self.log.append("child")
        self.name = self.name.title()


@dataclass
class Skips(Base):
    def __post_init__(self):
        self.log.append("skips only")


def run():
    c = Child("  ada lovelace ", level=3)
    s = Skips(" x ")
    return [c.name, c.log, repr(c), s.name, s.log, [f.name for f in dataclasses.fields(Child)]]
