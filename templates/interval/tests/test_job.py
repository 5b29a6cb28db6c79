"""Tests for the job, run by `cowboy test`: each test_* function gets a fresh local chain, and
the job's interval timer fires as blocks are made, paid from the value it was deployed with."""

import cowboy_test as ct

FUNDS = 100_000_000_000  # base units (100 CBY) the timer's firings are paid from


def deploy(every=3):
    return ct.deploy("job", every, value=FUNDS)


def test_deploying_sets_one_timer():
    deploy()
    (receipt,) = ct.receipts()
    assert receipt.timers == 1


def test_only_the_timer_ticks():
    job = deploy()
    with ct.expect_failure(kind="Exception", match="only from the job's timer"):
        job.tick()
    # As itself (what its timer does), it may.
    assert job.tick(sender=job.address) == 1


def test_the_interval_fires_every_n_blocks():
    job = deploy(3)  # deployed in block 1: fires in blocks 4, 7 and 10
    ticks = [r for r in ct.advance(9) if r.method == "tick"]
    assert [r.height for r in ticks] == [4, 7, 10]
    assert all(r.ok and r.emitted("Tick") for r in ticks)
    assert job.query("status") == {"ticks": 3, "last": 10, "running": True}


def test_firings_are_paid_from_the_actors_balance():
    job = deploy(1)
    before = job.balance
    fired = [r for r in ct.advance(3) if r.method == "tick"]
    assert len(fired) == 3
    assert job.balance == before - sum(r.fee for r in fired)


def test_only_the_owner_stops_it():
    job = deploy()
    with ct.expect_failure(match="only the owner"):
        job.stop(sender=ct.accounts[1])
    assert job.stop() is True
    assert not any(r.method == "tick" for r in ct.advance(6))


def test_every_must_be_at_least_one_block():
    with ct.expect_failure(match="at least 1 block"):
        deploy(0)


def test_a_job_without_funds_is_refused_instead_of_never_firing():
    with ct.expect_failure(match="deploy the job with value"):
        ct.deploy("job", 3)
