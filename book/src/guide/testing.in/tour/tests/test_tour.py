"""Every cowboy_test function, each in a test (the book's "Testing actors" chapter runs this)."""

import cowboy_test as ct
from helpers import counter


def test_deploy_and_call():
    c = counter(5)                        # the manifest's actor "counter", __init__(5)
    assert c.increment(2) == 7            # a handler: a transaction in a block of its own
    assert c.call("increment", 1, sender=ct.accounts[1]) == 8
    assert c.query("get") == 8            # read-only: no block, nothing kept
    assert c.storage("count") == 8        # self.storage["count"], as stored
    assert ct.height() == 3 and ct.timestamp_ms() % 500 == 0


def test_receipts():
    c = counter()
    r = c.transact("increment", 3)        # the Receipt, failed or not
    assert r.ok and r.return_value == 3 and r.kind is None
    assert r.cycles > 0 and r.cells > 0 and r.fee > 0
    assert r.emitted("Incremented") and r.events[0].data == 3
    assert r.ran() == ["counter.increment"] and r.sender == ct.deployer
    assert [x.method for x in ct.receipts()] == [None, "increment"]   # the deploy, the call


def test_failures():
    c = counter()
    with ct.expect_failure(kind="Exception", match="at least 1") as failed:
        c.increment(0)
    assert "counter.py" in failed.receipt.traceback
    r = c.transact("increment", 0)
    assert not r.ok and r.kind == "Exception"
    try:
        ct.deploy("no-such-actor")
    except ct.HarnessError as e:
        assert "no actor" in str(e)
    try:
        c.increment(0)
    except ct.CallFailed as e:
        assert e.kind == "Exception" and "at least 1" in e.message


def test_value_and_balances():
    c = counter(value=1_000)              # deploy with value
    assert c.balance == 1_000
    before = ct.balance(ct.accounts[2])
    r = ct.transfer(ct.accounts[2], 500)
    assert ct.balance(ct.accounts[2]) == before + 500 and r.ok


def test_blocks_and_queued_calls():
    c = counter()
    c.send("increment", 1)                # queued for the next block
    c.send("increment", 2)
    made = ct.advance()                   # one block with both
    assert [r.return_value for r in made] == [1, 3]
    ct.advance(10)
    assert ct.run_until_idle() == []      # nothing pending: no block made


def test_snapshot_and_revert():
    c = counter()
    snap = ct.snapshot()
    height = ct.height()
    c.increment(1)
    other = counter()
    later = ct.snapshot()
    ct.revert(snap)                       # state, height and time as they were
    assert ct.height() == height and c.query("get") == 0
    assert counter().address == other.address    # the same deploys, the same addresses
    try:
        ct.revert(later)                  # taken after `snap`: gone with the history
    except ct.HarnessError as e:
        assert "no snapshot" in str(e)


def test_beacon():
    dice = ct.deploy("dice")
    snap = ct.snapshot()
    ct.set_beacon(b"seed one")
    first = [dice.roll() for _ in range(3)]
    ct.revert(snap)
    ct.set_beacon(b"seed one")            # the same beacons: the same rolls
    assert [dice.roll() for _ in range(3)] == first
    ct.revert(snap)
    ct.set_beacon(b"seed two")            # other beacons: other rolls
    assert [dice.roll() for _ in range(3)] != first
    ct.set_beacon(b"seed one")
    chosen = ct.snapshot()                # a snapshot keeps the beacon seed in force
    again = [dice.roll() for _ in range(3)]
    ct.set_beacon(None)
    ct.revert(chosen)
    assert [dice.roll() for _ in range(3)] == again


def test_runner_jobs():
    fetcher = ct.deploy("fetcher", value=10_000_000_000)  # pays the jobs' escrow
    job = fetcher.fetch("https://api.example.com/price")
    made = ct.mock_job(job, result={"usd": 100})          # settled by the mock runners
    assert any(r.method == "on_result" for r in made)
    last = fetcher.query("last")
    assert last["status"] == "verified" and last["job"] == job
    job = fetcher.fetch("https://api.example.com/price")
    ct.mock_job(job, fault="external")                    # or: the runners report a fault
    assert fetcher.query("last")["status"] == "failed"
    assert len(ct.mock_runners) == 10


@ct.given(start=ct.integers(0, 100), steps=ct.lists(ct.integers(1, 9), max_size=3),
          max_examples=10)
def test_property(start, steps):
    c = counter(start)
    for s in steps:
        c.increment(s)
    assert c.query("get") == start + sum(steps)


@ct.given(flag=ct.booleans(), raw=ct.binary(max_size=4), word=ct.text(max_size=5),
          pick=ct.sampled_from(["a", "b"]), pair=ct.tuples(ct.just(1), ct.integers(0, 3)),
          max_examples=5)
def test_strategies(flag, raw, word, pick, pair):
    assert isinstance(flag, bool) and isinstance(raw, bytes) and isinstance(word, str)
    assert pick in ("a", "b") and pair[0] == 1
