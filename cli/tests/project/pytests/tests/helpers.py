"""A helper module the tests import (any tests/*.py that is not a test file)."""

import cowboy_test as ct


def counter(start=0):
    return ct.deploy("counter", start)
