"""The pinger and the ponger on one local chain, in Python (`cowboy test`; the TOML scenarios
beside this file check the same with steps). A ping is delivered to the ponger, whose pong comes
back within the same transaction; a silenced ponger lets the pinger's timeout fire."""

import cowboy_test as ct

FUNDS = 100_000_000_000  # base units (100 CBY) the pinger's timeout timers are paid from


def deploy(timeout_blocks=5):
    return ct.deploy("pinger", timeout_blocks, value=FUNDS), ct.deploy("ponger")


def test_the_ping_is_delivered_and_the_pong_comes_back():
    pinger, ponger = deploy()
    receipt = pinger.transact("ping", ponger.address, "hi")
    assert receipt.ok and receipt.return_value == 1
    assert receipt.ran() == ["pinger.ping", "ponger.ping", "pinger.pong"]
    assert receipt.emitted("Ping") and receipt.emitted("Pong")
    assert pinger.query("request", 1)["state"] == "answered"
    assert pinger.query("request", 1)["reply"] == "hi"


def test_a_silenced_ponger_lets_the_timeout_fire():
    pinger, ponger = deploy(timeout_blocks=5)
    ponger.set_silent(True)
    pinger.ping(ponger.address, "again")
    expired = [r for r in ct.advance(5) if r.method == "expire"]
    assert len(expired) == 1 and expired[0].emitted("Expired")
    assert pinger.stats() == {"sent": 1, "answered": 0, "expired": 1, "ignored": 0}


def test_nobody_else_expires_a_request():
    pinger, ponger = deploy()
    pinger.ping(ponger.address, "hi")
    with ct.expect_failure(kind="Exception", match="timeout timer"):
        pinger.expire(1)


def test_a_snapshot_replays_the_exchange_differently():
    pinger, ponger = deploy()
    before = ct.snapshot()
    pinger.ping(ponger.address, "answered")
    assert pinger.query("stats")["answered"] == 1
    ct.revert(before)
    ponger.set_silent(True)
    pinger.ping(ponger.address, "ignored")
    ct.advance(5)
    assert pinger.query("stats") == {"sent": 1, "answered": 0, "expired": 1, "ignored": 0}
