from functools import singledispatch


@singledispatch
def describe(x):
    return "object:" + type(x).__name__


@describe.register
def _(x: int):
    return "int:" + str(x)


@describe.register(list)
def _describe_list(x):
    return "list of " + str(len(x))


@describe.register(str)
@describe.register(bytes)
def _describe_text(x):
    return "text:" + str(len(x))


class Base:
    pass


class Child(Base):
    pass


@describe.register
def _(x: Base):
    return "base-ish:" + type(x).__name__


def run():
    return [describe(5), describe(True), describe([1, 2]), describe("hey"), describe(b"ab"),
            describe(2.5), describe(None), describe(Child()), describe((1,)),
            describe.dispatch(bool).__name__, describe.dispatch(float) is describe.registry[object]]
