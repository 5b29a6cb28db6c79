from dataclasses import dataclass

@dataclass
class Base:
    id: int

@dataclass
class Child(Base):
    name: str = "anon"

def run():
    return [repr(Child(1)), repr(Child(2, "z")), Child(1) == Child(1, "anon")]
