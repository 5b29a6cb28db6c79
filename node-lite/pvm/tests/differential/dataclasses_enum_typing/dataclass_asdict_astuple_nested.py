from dataclasses import dataclass, field, asdict, astuple


@dataclass
class Address:
    city: str
    zip: str


@dataclass
class Person:
    name: str
    address: Address
    phones: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


def run():
    p = Person("kim", Address("Oslo", "0150"), ["1", "2"], {"home": Address("Bergen", "5003")})
    d = asdict(p)
    t = astuple(p)
    d["phones"].append("3")
    out = [d, t, p.phones, type(d["address"]).__name__, type(t[1]).__name__]
    out.append(asdict(p, dict_factory=lambda items: [k for k, _ in items]))
    try:
        asdict(Address)
    except TypeError as e:
        out.append(str(e))
    try:
        astuple({"a": 1})
    except TypeError as e:
        out.append(str(e))
    return out
