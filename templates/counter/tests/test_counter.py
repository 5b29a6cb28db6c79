"""Tests for the counter, run by `cowboy test`: each test_* function gets a fresh local chain."""

import cowboy_test as ct


def test_starts_where_it_is_told():
    counter = ct.deploy("counter", 7)
    assert counter.query("get") == 7


def test_increment_returns_the_new_count():
    counter = ct.deploy("counter", 0)
    assert counter.increment() == 1
    assert counter.increment(5) == 6


def test_increment_emits_an_event():
    counter = ct.deploy("counter", 0)
    receipt = counter.transact("increment", 2)
    assert receipt.ok
    assert receipt.emitted("Incremented")
    assert receipt.events[0].data == 2


def test_increment_by_zero_fails():
    counter = ct.deploy("counter", 3)
    with ct.expect_failure(kind="Exception", match="at least 1"):
        counter.increment(0)
    assert counter.query("get") == 3


def test_the_count_is_in_storage():
    counter = ct.deploy("counter", 0)
    counter.increment(4)
    assert counter.storage("count") == 4


def test_anyone_can_increment():
    counter = ct.deploy("counter", 0)
    receipt = counter.transact("increment", 1, sender=ct.accounts[1])
    assert receipt.sender == ct.accounts[1]
    assert counter.query("get") == 1


def test_calls_are_metered_and_paid():
    counter = ct.deploy("counter", 0)
    before = ct.balance(ct.deployer)
    receipt = counter.transact("increment", 1)
    assert receipt.cycles > 0 and receipt.cells > 0
    assert ct.balance(ct.deployer) == before - receipt.fee


def test_revert_goes_back_to_a_snapshot():
    counter = ct.deploy("counter", 0)
    counter.increment(1)
    snap = ct.snapshot()
    height = ct.height()
    counter.increment(10)
    ct.revert(snap)
    assert ct.height() == height
    assert counter.query("get") == 1


def test_two_counters_are_independent():
    a = ct.deploy("counter", 0)
    b = ct.deploy("counter", 100)
    assert a.address != b.address
    a.increment(1)
    assert (a.query("get"), b.query("get")) == (1, 100)


@ct.given(steps=ct.lists(ct.integers(1, 1000), max_size=4), max_examples=10)
def test_the_count_is_the_sum_of_the_increments(steps):
    counter = ct.deploy("counter", 0)
    for n in steps:
        counter.increment(n)
    assert counter.query("get") == sum(steps)
