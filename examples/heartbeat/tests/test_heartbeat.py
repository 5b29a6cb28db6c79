"""The heartbeat in Python (`cowboy test`; `heartbeat.toml` checks the same with steps):
blocks are made and the interval timer beats, paid from the actor's balance."""

import cowboy_test as ct

FUNDS = 100_000_000_000  # base units (100 CBY) its timer's firings are paid from


def deploy(every=2):
    return ct.deploy("heartbeat", every, value=FUNDS)


def beats(receipts):
    return [r for r in receipts if r.method == "beat"]


def test_it_beats_every_n_blocks():
    heart = deploy(2)  # deployed in block 1: beats in blocks 3, 5, 7
    fired = beats(ct.advance(6))
    assert [r.height for r in fired] == [3, 5, 7]
    assert [r.events_named("Beat")[0].data for r in fired] == [[1, 3], [2, 5], [3, 7]]
    assert heart.query("status") == {"beats": 3, "late": 0, "last": 7, "every": 2, "running": True}


def test_pause_stops_the_beats_and_resume_restarts_them():
    heart = deploy(2)
    assert heart.pause() is True
    assert heart.pause() is False
    assert beats(ct.advance(6)) == []
    assert heart.resume() is True
    assert len(beats(ct.advance(2))) == 1


def test_only_its_timer_beats_and_only_its_owner_pauses():
    heart = deploy()
    with ct.expect_failure(match="only from the heartbeat's timer"):
        heart.beat()
    with ct.expect_failure(match="only the owner"):
        heart.pause(sender=ct.accounts[1])


@ct.given(every=ct.integers(1, 6), blocks=ct.integers(0, 24), max_examples=25)
def test_the_beats_are_the_blocks_over_the_period(every, blocks):
    heart = deploy(every)
    ct.advance(blocks)
    assert heart.query("status")["beats"] == blocks // every
