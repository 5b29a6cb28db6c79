"""The price oracle with its runner jobs mocked (`cowboy test`): `ct.mock_job` settles a job
through the chain's real market with the test chain's mock runners, so the callback path is
tested without runners. `cli/tests/runners.rs` runs it against a real runner fleet."""

import cowboy_test as ct

URL = "https://api.coingecko.com/api/v3/simple/price?ids=bitcoin&vs_currencies=usd"
FUNDS = 100_000_000_000  # base units (100 CBY): the jobs' escrow and the timer's firings


def deploy(every=30, runners=5):
    return ct.deploy("price-oracle", URL, every, runners, value=FUNDS)


def test_a_verified_price_reaches_the_oracle():
    oracle = deploy()
    job = oracle.refresh()
    made = ct.mock_job(job, result='{"bitcoin": {"usd": 97123.45}}')
    delivered = [r for r in made if r.method == "on_price"]
    assert len(delivered) == 1 and delivered[0].emitted("Price")
    status = oracle.query("price")
    assert status["price"] == 9712345 and status["pending"] is None


def test_a_failed_job_is_counted_and_the_oracle_asks_again():
    oracle = deploy()
    job = oracle.refresh()
    ct.mock_job(job, fault="external")
    status = oracle.query("price")
    assert (status["failed"], status["price"], status["pending"]) == (1, None, None)
    assert oracle.refresh() != job


def test_one_job_at_a_time():
    oracle = deploy()
    job = oracle.refresh()
    assert oracle.refresh() == job


def test_the_timer_asks_for_a_price():
    deploy(every=3)
    fired = [r for r in ct.advance(3) if r.method == "refresh"]
    assert len(fired) == 1 and fired[0].emitted("Requested")


def test_only_its_timer_or_owner_refreshes_and_only_the_dispatcher_delivers():
    oracle = deploy()
    with ct.expect_failure(match="timer or its owner"):
        oracle.refresh(sender=ct.accounts[1])
    with ct.expect_failure(match="only the Job Dispatcher"):
        oracle.on_price("0x00", "verified", "{}", {})
