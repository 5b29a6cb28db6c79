class InsufficientFunds(Exception):
    def __init__(self, account, needed, available):
        super().__init__(account, needed)
        self.account = account
        self.needed = needed
        self.available = available

    def __str__(self):
        return f"{self.account}: need {self.needed}, have {self.available}"


class Plain(Exception):
    pass


class NoSuper(Exception):
    def __init__(self, code):
        self.code = code


def run():
    out = []
    try:
        raise InsufficientFunds("alice", 10, 3)
    except InsufficientFunds as e:
        out.append([str(e), repr(e), list(e.args), e.needed - e.available])
    p = Plain("msg", 7)
    out.append([str(p), repr(p), list(p.args)])
    n = NoSuper(42)
    out.append([str(n), repr(n), list(n.args), n.code])
    return out
