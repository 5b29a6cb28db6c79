from functools import singledispatch

@singledispatch
def describe(x):
    return "thing"

@describe.register
def _(x: int):
    return "int"

@describe.register(list)
def _(x):
    return "list of " + str(len(x))

def run():
    return [describe(1), describe([1, 2]), describe("s"), describe(True)]
