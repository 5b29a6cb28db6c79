from dataclasses import dataclass, field, fields, InitVar, asdict


@dataclass
class Account:
    user: str
    password: InitVar[str]
    salt: InitVar[str] = "s"
    digest: str = field(init=False)

    def __post_init__(self, password, salt):
        self.digest = f"{salt}:{len(password)}:{password[::-1]}"


def run():
    a = Account("ann", "secret")
    b = Account("bob", "pw", salt="x")
    out = [repr(a), b.digest, [f.name for f in fields(a)], asdict(b)]
    out.append(hasattr(a, "password"))
    out.append(Account.salt)
    out.append(repr(Account("cy", "abc", "z")))
    try:
        Account("c")
    except TypeError as e:
        out.append(str(e))
    return out
