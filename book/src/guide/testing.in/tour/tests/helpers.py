"""Shared by the tests: any tests/*.py that is not a test file is a module they can import."""

import cowboy_test as ct


def counter(start=0, **kw):
    return ct.deploy("counter", start, **kw)
