import cowboy_test as ct


def test_increment():
    counter = ct.deploy("counter", 1)
    print("deployed at", counter.address)
    assert counter.increment(1) == 3, "one plus one"


def test_zero():
    ct.deploy("counter").increment(0)


@ct.given(n=ct.integers(0, 10_000), max_examples=50)
def test_below_a_thousand(n):
    counter = ct.deploy("counter")
    counter.increment(n + 1)
    assert counter.query("get") <= 1000
