"""Python tests for Cowboy actors: drive a local chain from a test (``cowboy test``).

Each ``test_*`` function of ``tests/test_*.py`` runs against a fresh local chain: the node's own
state transition on a store in memory, with funded ``accounts``. Test code is not metered; every
actor call it makes is metered exactly as on chain. A call makes a block with one transaction,
so its receipt, its cycles and cells, its fee and its events are those a devnet gives.

    import cowboy_test as ct

    def test_increment():
        counter = ct.deploy("counter", 0)
        assert counter.increment(5) == 5
        assert counter.query("get") == 5
        with ct.expect_failure(kind="Exception", match="negative"):
            counter.increment(-1)
"""

import _cowboy_test_host as _host

__all__ = [
    "Actor",
    "CallFailed",
    "Event",
    "HarnessError",
    "Receipt",
    "accounts",
    "advance",
    "balance",
    "booleans",
    "binary",
    "deploy",
    "deployer",
    "expect_failure",
    "given",
    "height",
    "integers",
    "just",
    "lists",
    "mock_job",
    "mock_runners",
    "receipts",
    "revert",
    "run_until_idle",
    "sampled_from",
    "set_beacon",
    "snapshot",
    "text",
    "timestamp_ms",
    "transfer",
    "tuples",
]


class HarnessError(Exception):
    """The test asked for something the harness cannot do: an actor the manifest does not have,
    an argument without a canonical encoding, a revert to an unknown snapshot..."""


def _request(op, **args):
    ok, value = _host.request(op, args)
    if not ok:
        raise HarnessError(value)
    return value


#: The funded accounts of every test chain (10,000 CBY each), as ``0x…`` addresses.
accounts = _request("accounts")
#: Who deploys and calls unless a test says otherwise: ``accounts[0]``.
deployer = accounts[0]
#: The runners every test chain registers at genesis, which ``mock_job`` acts as.
mock_runners = _request("mock_runners")


class Event:
    """An event a call emitted: ``topics`` (32-byte values, the first ``keccak256(name)``) and
    ``data`` (the decoded value)."""

    def __init__(self, raw):
        self.topics = raw["topics"]
        self.data = raw["data"]
        self.actor = raw["actor"]

    def is_named(self, name):
        return bool(self.topics) and self.topics[0] == _request("topic", name=name)

    def __repr__(self):
        return "Event(topic=0x%s, data=%r)" % (self.topics[0].hex() if self.topics else "", self.data)


class Receipt:
    """What one transaction, timer firing or deferred delivery did."""

    def __init__(self, raw):
        self.tx_hash = raw["tx_hash"]
        self.height = raw["height"]
        self.ok = raw["ok"]
        #: The failure kind's name (``Exception``, ``OutOfCycles``…), ``None`` on success.
        self.kind = raw["kind"]
        self.message = raw["message"]
        self.return_value = raw["return_value"]
        self.cycles = raw["cycles"]
        self.cells = raw["cells"]
        self.fee = raw["fee"]
        self.events = [Event(e) for e in raw["events"]]
        self.logs = raw["logs"]
        #: The actor's traceback (in its source file) when its code raised.
        self.traceback = raw["traceback"]
        self.actor = raw["actor"]
        #: The manifest name of the actor, when the test deployed it.
        self.name = raw["name"]
        self.method = raw["method"]
        self.sender = raw["sender"]
        #: Every call it ran, in order: dicts with ``actor``, ``name``, ``method``, ``depth``
        #: (0 for its own message, +1 per nested send), ``ok``, ``cycles`` and ``cells``.
        self.calls = raw["calls"]
        #: The methods of the messages its own call sent, and how many timers it set.
        self.messages = raw["messages"]
        self.timers = raw["timers"]

    def ran(self):
        """The handlers its calls ran, in order (``"name.method"``, ``__init__`` for a
        deploy)."""
        return [
            "%s.%s" % (c["name"] or c["actor"], c["method"] or "__init__") for c in self.calls
        ]

    def emitted(self, name):
        """Whether the transaction emitted an event named ``name``."""
        return any(e.is_named(name) for e in self.events)

    def events_named(self, name):
        return [e for e in self.events if e.is_named(name)]

    def __repr__(self):
        who = self.name or self.actor
        what = "%s.%s" % (who, self.method) if self.method else str(who)
        if self.ok:
            return "Receipt(%s ok, returned %r, %d cycles)" % (what, self.return_value, self.cycles)
        return "Receipt(%s failed: %s: %s)" % (what, self.kind, self.message)


class CallFailed(Exception):
    """A call the test made failed on chain. ``receipt`` says how (``kind``, ``message``, the
    actor's ``traceback``)."""

    def __init__(self, receipt):
        self.receipt = receipt
        self.kind = receipt.kind
        self.message = receipt.message
        text = "%s failed: %s: %s" % (
            "%s.%s" % (receipt.name or receipt.actor, receipt.method)
            if receipt.method
            else "the deploy of %s" % (receipt.name or receipt.actor),
            receipt.kind,
            receipt.message,
        )
        if receipt.traceback:
            text += "\n" + receipt.traceback.rstrip()
        Exception.__init__(self, text)


def _checked(raw):
    receipt = Receipt(raw)
    if not receipt.ok:
        raise CallFailed(receipt)
    return receipt


class Actor:
    """A deployed actor. ``actor.handler(*args)`` calls a handler (a transaction in a block of
    its own) and returns what it returned; ``call``, ``transact``, ``send`` and ``query`` take a
    sender, a value, or make no block."""

    def __init__(self, name, address):
        self.name = name
        self.address = address

    def call(self, method, *args, value=0, sender=None):
        """Calls ``method`` in a block of its own; its return value (``CallFailed`` if it
        failed)."""
        return self.transact(method, *args, value=value, sender=sender, check=True).return_value

    def transact(self, method, *args, value=0, sender=None, check=False):
        """Calls ``method`` in a block of its own; its ``Receipt`` (failed or not, unless
        ``check``)."""
        raw = _request(
            "call", to=self.address, method=method, args=list(args), value=value,
            sender=sender, block=True,
        )
        return _checked(raw) if check else Receipt(raw)

    def send(self, method, *args, value=0, sender=None):
        """Queues a call for the next block (``advance`` makes it); its transaction hash."""
        return _request(
            "call", to=self.address, method=method, args=list(args), value=value,
            sender=sender, block=False,
        )

    def query(self, method, *args, sender=None):
        """Runs ``method`` read-only on the latest state (no block, nothing kept); its return
        value (``CallFailed`` if it failed)."""
        raw = _request("query", to=self.address, method=method, args=list(args), sender=sender)
        return _checked(raw).return_value

    def attribute(self, name):
        """The stored value of the instance attribute ``self.name`` (``None`` if unset)."""
        return _request("attribute", actor=self.address, name=name)

    def storage(self, key):
        """The value under ``self.storage[key]`` (``None`` if unset)."""
        return _request("storage", actor=self.address, key=key)

    @property
    def balance(self):
        return balance(self.address)

    def __getattr__(self, method):
        if method.startswith("_"):
            raise AttributeError(method)

        def handler(*args, value=0, sender=None):
            return self.call(method, *args, value=value, sender=sender)

        handler.__name__ = method
        return handler

    def __eq__(self, other):
        return isinstance(other, Actor) and other.address == self.address

    def __hash__(self):
        return hash(self.address)

    def __repr__(self):
        return "Actor(%s at %s)" % (self.name, self.address)


def deploy(name, *args, value=0, sender=None, salt=None):
    """Deploys the manifest's actor ``name`` with ``__init__(*args)`` in a block of its own;
    an ``Actor`` (``CallFailed`` if ``__init__`` failed)."""
    raw = _request("deploy", name=name, args=list(args), value=value, sender=sender, salt=salt)
    _checked(raw)
    return Actor(name, raw["address"])


def transfer(to, amount, sender=None):
    """Sends ``amount`` base units to ``to`` in a block of its own; the ``Receipt``."""
    if isinstance(to, Actor):
        to = to.address
    return _checked(_request("transfer", to=to, amount=amount, sender=sender))


def advance(blocks=1):
    """Makes ``blocks`` blocks (the first with the calls ``send`` queued): timers fire and
    waiting messages are delivered. The ``Receipt`` of everything they ran."""
    return [Receipt(r) for r in _request("advance", blocks=blocks)]


def run_until_idle(max_blocks=1000):
    """Makes blocks until nothing is left to do: no queued call, no waiting message, no pending
    timer. Raises ``HarnessError`` if that takes more than ``max_blocks`` (a timer that sets
    itself again never lets a chain go idle: use ``advance``)."""
    return [Receipt(r) for r in _request("until_idle", max_blocks=max_blocks)]


def receipts():
    """Every receipt of this test's chain so far, oldest first."""
    return [Receipt(r) for r in _request("receipts")]


def height():
    """The last block's height."""
    return _request("height")


def timestamp_ms():
    """The last block's timestamp (a local block is 500 ms after the one before)."""
    return _request("timestamp")


def balance(address):
    """The balance of ``address`` (an ``Actor`` or a ``0x…`` address), in base units."""
    if isinstance(address, Actor):
        address = address.address
    return _request("balance", address=address)


def snapshot():
    """A handle to the chain as it is now, for ``revert``."""
    return _request("snapshot")


def revert(snapshot_id):
    """Rolls the chain back to ``snapshot_id``: state, height and time as they were."""
    _request("revert", id=snapshot_id)


def set_beacon(seed):
    """The beacons of the next blocks (the randomness actors read) derive from ``seed``
    (bytes) instead of the height alone; ``None`` restores the default."""
    _request("set_beacon", seed=seed)


def mock_job(job_id, result=None, fault=None):
    """Settles the runner job ``job_id`` (what ``submit_job``, ``http_job``… returned) through
    the chain's real market, with the test chain's mock runners as its committee: every member
    commits to ``result`` (bytes, text, or a value sent as JSON), the aggregator reveals, the
    chain verifies, and the job's callback runs. With ``fault`` (``"external"`` or
    ``"bounds_too_tight"``) they report that fault instead and the callback hears the job
    failed. Makes the blocks this takes; the ``Receipt`` of everything they ran."""
    if isinstance(job_id, bytes):
        job_id = "0x" + job_id.hex()
    return [Receipt(r) for r in _request("mock_job", job=job_id, result=result, fault=fault)]


class expect_failure:
    """``with expect_failure(kind=..., match=...):`` — the block must make a call that fails
    with that kind (``"Exception"``, ``"OutOfCycles"``…) and a message containing ``match``.
    The failed call's receipt is ``.receipt`` afterwards."""

    def __init__(self, kind=None, match=None):
        self.kind = kind
        self.match = match
        self.receipt = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is None:
            raise AssertionError(
                "expected a call to fail%s, but nothing failed" % self._wanted()
            )
        if not isinstance(exc, CallFailed):
            return False
        self.receipt = exc.receipt
        if self.kind is not None and exc.kind != self.kind:
            raise AssertionError(
                "expected a failure%s, got %s: %s" % (self._wanted(), exc.kind, exc.message)
            )
        if self.match is not None and self.match not in exc.message:
            raise AssertionError(
                "expected a failure%s, got %s: %s" % (self._wanted(), exc.kind, exc.message)
            )
        return True

    def _wanted(self):
        parts = []
        if self.kind is not None:
            parts.append("of kind %s" % self.kind)
        if self.match is not None:
            parts.append("with a message containing %r" % self.match)
        return (" " + " and ".join(parts)) if parts else ""


# ---------------------------------------------------------------------------------------------
# Property tests
# ---------------------------------------------------------------------------------------------

_MASK = (1 << 64) - 1


class _Random:
    """SplitMix64: the same seed draws the same examples on every machine."""

    def __init__(self, seed):
        self.state = seed & _MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n if n > 0 else 0


class Strategy:
    """Draws values for ``given`` and proposes simpler ones when an example fails."""

    def draw(self, rng):
        raise NotImplementedError

    def shrink(self, value):
        return []


class _Integers(Strategy):
    def __init__(self, min_value, max_value):
        if min_value > max_value:
            raise HarnessError("integers(%d, %d): the minimum is above the maximum" % (min_value, max_value))
        self.lo, self.hi = min_value, max_value

    def draw(self, rng):
        span = self.hi - self.lo + 1
        # Edges come up often: that is where bugs are.
        pick = rng.below(8)
        if pick == 0:
            return self.lo
        if pick == 1:
            return self.hi
        if pick == 2 and self.lo <= 0 <= self.hi:
            return 0
        return self.lo + (rng.next() * ((span >> 64) + 1) + rng.next()) % span

    def shrink(self, value):
        # The simplest value first, then ever closer to the failing one: the first that still
        # fails is taken, so shrinking is a binary search toward the boundary.
        target = 0 if self.lo <= 0 <= self.hi else (self.lo if self.lo > 0 else self.hi)
        out = []
        distance = value - target
        while distance != 0:
            candidate = value - distance
            if candidate not in out:
                out.append(candidate)
            # Halved toward zero, exactly (a float would lose big integers).
            distance = distance // 2 if distance > 0 else -(-distance // 2)
        return out


def integers(min_value=-(1 << 63), max_value=(1 << 63) - 1):
    """Integers in ``[min_value, max_value]``; failing examples shrink toward 0."""
    return _Integers(min_value, max_value)


class _Booleans(Strategy):
    def draw(self, rng):
        return rng.below(2) == 1

    def shrink(self, value):
        return [False] if value else []


def booleans():
    return _Booleans()


class _Just(Strategy):
    def __init__(self, value):
        self.value = value

    def draw(self, rng):
        return self.value


def just(value):
    return _Just(value)


class _Sampled(Strategy):
    def __init__(self, values):
        self.values = list(values)
        if not self.values:
            raise HarnessError("sampled_from needs at least one value")

    def draw(self, rng):
        return self.values[rng.below(len(self.values))]

    def shrink(self, value):
        i = self.values.index(value)
        return [self.values[0]] if i > 0 else []


def sampled_from(values):
    """One of ``values``; failing examples shrink toward the first."""
    return _Sampled(values)


class _Lists(Strategy):
    def __init__(self, elements, min_size, max_size):
        self.elements, self.min_size, self.max_size = elements, min_size, max_size

    def draw(self, rng):
        n = self.min_size + rng.below(self.max_size - self.min_size + 1)
        return [self.elements.draw(rng) for _ in range(n)]

    def shrink(self, value):
        out = []
        if len(value) > self.min_size:
            out.append(value[: self.min_size])
            out.append(value[: len(value) // 2] if len(value) // 2 >= self.min_size else value[: self.min_size])
            for i in range(len(value)):
                out.append(value[:i] + value[i + 1:])
        for i, v in enumerate(value):
            for s in self.elements.shrink(v):
                out.append(value[:i] + [s] + value[i + 1:])
        return [c for c in out if c != value]


def lists(elements, min_size=0, max_size=10):
    """Lists of ``elements``; failing examples shrink by dropping and simplifying items."""
    return _Lists(elements, min_size, max_size)


class _Binary(Strategy):
    def __init__(self, min_size, max_size):
        self.inner = _Lists(_Integers(0, 255), min_size, max_size)

    def draw(self, rng):
        return bytes(self.inner.draw(rng))

    def shrink(self, value):
        return [bytes(v) for v in self.inner.shrink(list(value))]


def binary(min_size=0, max_size=32):
    return _Binary(min_size, max_size)


class _Text(Strategy):
    def __init__(self, alphabet, min_size, max_size):
        self.alphabet = alphabet
        self.inner = _Lists(_Sampled(alphabet), min_size, max_size)

    def draw(self, rng):
        return "".join(self.inner.draw(rng))

    def shrink(self, value):
        return ["".join(v) for v in self.inner.shrink(list(value))]


def text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 ", min_size=0, max_size=16):
    return _Text(alphabet, min_size, max_size)


class _Tuples(Strategy):
    def __init__(self, parts):
        self.parts = parts

    def draw(self, rng):
        return tuple(p.draw(rng) for p in self.parts)

    def shrink(self, value):
        out = []
        for i, p in enumerate(self.parts):
            for s in p.shrink(value[i]):
                out.append(value[:i] + (s,) + value[i + 1:])
        return out


def tuples(*parts):
    return _Tuples(parts)


def _seed_of(name):
    # FNV-1a of the test's name, mixed with the run's seed.
    h = 0xCBF29CE484222325
    for b in name.encode():
        h = ((h ^ b) * 0x100000001B3) & _MASK
    return h ^ _request("settings")["seed"]


_MAX_SHRINKS = 200


#: Examples a property test draws unless it says (``max_examples``) or ``--fuzz-runs`` does.
DEFAULT_EXAMPLES = 256


def given(max_examples=None, **strategies):
    """Runs the test on many drawn examples, each on a fresh chain: ``--fuzz-runs`` if given,
    else ``max_examples``, else 256. The examples come from a seed (``--seed``, and the test's
    name), so every run draws the same ones. A failing example is shrunk to a simpler one that
    still fails, and reported as the falsifying example."""

    def decorate(test):
        def run():
            settings = _request("settings")
            runs = settings["fuzz_runs"]
            if runs is None:
                runs = DEFAULT_EXAMPLES if max_examples is None else max_examples
            rng = _Random(_seed_of(test.__name__))
            names = sorted(strategies)
            for _ in range(runs):
                example = {n: strategies[n].draw(rng) for n in names}
                error = _attempt(test, example)
                if error is not None:
                    example, error = _shrink(test, strategies, names, example, error)
                    shown = ", ".join("%s=%r" % (n, example[n]) for n in names)
                    raise AssertionError(
                        "Falsifying example: %s(%s)" % (test.__name__, shown)
                    ) from error

        run.__name__ = test.__name__
        run.__doc__ = test.__doc__
        run.__cowboy_given__ = True
        return run

    return decorate


def _attempt(test, example):
    _request("reset")
    try:
        test(**example)
    except Exception as e:
        return e
    return None


def _shrink(test, strategies, names, example, error):
    tries = 0
    improved = True
    while improved and tries < _MAX_SHRINKS:
        improved = False
        for n in names:
            for candidate in strategies[n].shrink(example[n]):
                tries += 1
                if tries > _MAX_SHRINKS:
                    break
                trial = dict(example)
                trial[n] = candidate
                e = _attempt(test, trial)
                if e is not None:
                    example, error, improved = trial, e, True
                    break
            if improved:
                break
    return example, error
