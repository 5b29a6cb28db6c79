"""Passing, failing and property tests, for the transcript of `cowboy test`."""

import cowboy_test as ct
from helpers import counter


def test_passes():
    c = counter(1)
    assert c.increment(2) == 3


def test_wrong_assertion():
    c = counter(1)
    print("incremented to", c.increment(1))
    assert c.query("get") == 5, "the count is off"


def test_actor_exception():
    counter().increment(0)


@ct.given(n=ct.integers(0, 1000), max_examples=100)
def test_property_shrinks(n):
    c = counter()
    c.increment(n + 1)
    assert c.query("get") <= 100


@ct.given(steps=ct.lists(ct.integers(1, 9), max_size=3), max_examples=5)
def test_property_holds(steps):
    c = counter()
    for s in steps:
        c.increment(s)
    assert c.query("get") == sum(steps)
