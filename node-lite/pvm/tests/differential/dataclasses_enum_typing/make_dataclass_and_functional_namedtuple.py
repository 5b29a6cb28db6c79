import dataclasses
import typing


def run():
    P = typing.NamedTuple("P", [("x", int), ("y", str)])
    D = dataclasses.make_dataclass("D", ["a", ("b", int, 5)], frozen=True)
    E = dataclasses.make_dataclass("E", [("n", int, dataclasses.field(default=0))], order=True)
    out = [repr(P(1, "a")), P._fields, repr(D(1)), E.__doc__, [f.name for f in dataclasses.fields(D)],
           E(1) < E(2), repr(sorted([E(3), E(1)]))]
    try:
        dataclasses.make_dataclass("F", ["a"], module="m")
    except TypeError as e:
        out.append(str(e))
    return out
