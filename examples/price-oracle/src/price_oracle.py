"""Price oracle: on a chain-native timer, a committee of runners fetches a price over HTTP and
the majority value (more than half the committee agreeing) comes back through `on_price`. Runners that return another value are paid
nothing and lose reputation; the job's escrow comes from this actor's balance, so deploy it
with value."""

import json

from cowboy_sdk import (actor, emit, block_height, caller, self_address, set_interval,
                        cancel_timer, http_job)

# The Job Dispatcher (0x…02) delivers job results.
DISPATCHER = "0x" + "00" * 19 + "02"
FIELD = "/bitcoin/usd"
# What delivering a result may cost (1 CBY: some 50,000 cycles at a devnet's basefee); the
# unused part goes back to the oracle.
CALLBACK_FEE = 1_000_000_000


@actor
class PriceOracle:
    def __init__(self, url, every=30, runners=5, max_price=10_000_000):
        if every < 1:
            raise ValueError("every must be at least 1 block")
        if runners < 3:
            raise ValueError("majority_vote needs a committee of at least 3 runners")
        self.storage["owner"] = caller()
        self.storage["url"] = url
        self.storage["runners"] = runners
        self.storage["max_price"] = max_price
        self.storage["price"] = None
        self.storage["updated"] = None
        self.storage["pending"] = None
        self.storage["jobs"] = 0
        self.storage["failed"] = 0
        self.storage["timer"] = set_interval(every, "refresh", start=block_height() + every)

    def refresh(self):
        """Asks for a fresh price (the timer, or the owner); one job at a time."""
        if caller() not in (self_address(), self.storage["owner"]):
            raise PermissionError("refresh runs from the oracle's timer or its owner")
        if self.storage["pending"] is not None:
            return self.storage["pending"]
        job = http_job(self.storage["url"], "on_price", self.storage["max_price"],
                       extract=[FIELD], verification="majority_vote", vote_field=FIELD,
                       runners=self.storage["runners"],
                       threshold=self.storage["runners"] // 2 + 1, timeout_blocks=20,
                       callback_fee=CALLBACK_FEE)
        self.storage["pending"] = job
        self.storage["jobs"] += 1
        emit("Requested", [job, block_height()])
        return job

    def on_price(self, job_id, status, result, details):
        if caller() != DISPATCHER:
            raise PermissionError("only the Job Dispatcher delivers results")
        # Anyone may submit a job naming this handler as its callback, with a URL of their
        # choosing that honest runners will verify: only the job this oracle asked for counts.
        if job_id != self.storage["pending"]:
            emit("Ignored", [job_id])
            return
        self.storage["pending"] = None
        if status != "verified":
            self.storage["failed"] += 1
            emit("Failed", [job_id, status])
            return
        # Floats cannot be stored: keep the price in hundredths.
        price = int(round(_at(result, FIELD) * 100))
        self.storage["price"] = price
        self.storage["updated"] = block_height()
        emit("Price", [price, block_height()])

    def price(self):
        """The last verified price in hundredths of a dollar, and the oracle's counters."""
        return {
            "price": self.storage["price"],
            "updated": self.storage["updated"],
            "pending": self.storage["pending"],
            "jobs": self.storage["jobs"],
            "failed": self.storage["failed"],
        }

    def stop(self):
        if caller() != self.storage["owner"]:
            raise PermissionError("only the owner stops the oracle")
        if self.storage["timer"] is not None:
            cancel_timer(self.storage["timer"])
            self.storage["timer"] = None


def _at(result, pointer):
    if isinstance(result, bytes):
        result = result.decode()
    value = json.loads(result)
    for part in pointer.split("/")[1:]:
        value = value[part]
    return value
