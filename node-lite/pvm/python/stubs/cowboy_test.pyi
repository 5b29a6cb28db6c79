"""Type stubs for ``cowboy_test``, the module Python tests of actors import (``cowboy test``),
for editors. Checked against the module the PVM runs by the project's stub-drift test."""

from typing import Any, Callable, Sequence


class HarnessError(Exception):
    """The test asked for something the harness cannot do: an actor the manifest does not have,
    an argument without a canonical encoding, a revert to an unknown snapshot...
    """
accounts: list[str]
deployer: str
mock_runners: list[str]

class Event:
    """An event a call emitted: ``topics`` (32-byte values, the first ``keccak256(name)``) and
    ``data`` (the decoded value).
    """
    topics: list[bytes]
    data: Any
    actor: str
    def __init__(self, raw: dict[str, Any]) -> None: ...
    def is_named(self, name: str) -> bool: ...
    def __repr__(self) -> str: ...

class Receipt:
    """What one transaction, timer firing or deferred delivery did."""
    tx_hash: str
    height: int
    ok: bool
    kind: str | None
    message: str
    return_value: Any
    cycles: int
    cells: int
    fee: int
    events: list[Event]
    logs: list[str]
    traceback: str | None
    actor: str | None
    name: str | None
    method: str | None
    sender: str | None
    calls: list[dict[str, Any]]
    messages: list[str]
    timers: int
    def __init__(self, raw: dict[str, Any]) -> None: ...
    def ran(self) -> list[str]: ...
    def emitted(self, name: str) -> bool: ...
    def events_named(self, name: str) -> list[Event]: ...
    def __repr__(self) -> str: ...

class CallFailed(Exception):
    """A call the test made failed on chain. ``receipt`` says how (``kind``, ``message``, the
    actor's ``traceback``).
    """
    receipt: Receipt
    kind: str
    message: str
    def __init__(self, receipt: Receipt) -> None: ...

class Actor:
    """A deployed actor. ``actor.handler(*args)`` calls a handler (a transaction in a block of
    its own) and returns what it returned; ``call``, ``transact``, ``send`` and ``query`` take
    a sender, a value, or make no block.
    """
    name: str
    address: str
    def __init__(self, name: str, address: str) -> None: ...
    def call(self, method: str, *args: Any, value: int = ..., sender: str | None = ...) -> Any: ...
    def transact(self, method: str, *args: Any, value: int = ..., sender: str | None = ..., check: bool = ...) -> Receipt: ...
    def send(self, method: str, *args: Any, value: int = ..., sender: str | None = ...) -> str: ...
    def query(self, method: str, *args: Any, sender: str | None = ...) -> Any: ...
    def attribute(self, name: str) -> Any: ...
    def storage(self, key: Any) -> Any: ...
    @property
    def balance(self) -> int: ...
    def __getattr__(self, method: str) -> Callable[..., Any]: ...
    def __eq__(self, other: Any) -> bool: ...
    def __hash__(self) -> int: ...
    def __repr__(self) -> str: ...

def deploy(name: str, *args: Any, value: int = ..., sender: str | None = ..., salt: bytes | None = ...) -> Actor:
    """Deploys the manifest's actor ``name`` with ``__init__(*args)`` in a block of its own; an
    ``Actor`` (``CallFailed`` if ``__init__`` failed).
    """
    ...

def transfer(to: str | Actor, amount: int, sender: str | None = ...) -> Receipt:
    """Sends ``amount`` base units to ``to`` in a block of its own; the ``Receipt``."""
    ...

def advance(blocks: int = ...) -> list[Receipt]:
    """Makes ``blocks`` blocks (the first with the calls ``send`` queued): timers fire and
    waiting messages are delivered. The ``Receipt`` of everything they ran.
    """
    ...

def run_until_idle(max_blocks: int = ...) -> list[Receipt]:
    """Makes blocks until nothing is left to do: no queued call, no waiting message, no pending
    timer. Raises ``HarnessError`` if that takes more than ``max_blocks`` (a timer that sets
    itself again never lets a chain go idle: use ``advance``).
    """
    ...

def receipts() -> list[Receipt]:
    """Every receipt of this test's chain so far, oldest first."""
    ...

def height() -> int:
    """The last block's height."""
    ...

def timestamp_ms() -> int:
    """The last block's timestamp (a local block is 500 ms after the one before)."""
    ...

def balance(address: str | Actor) -> int:
    """The balance of ``address`` (an ``Actor`` or a ``0x…`` address), in base units."""
    ...

def snapshot() -> int:
    """A handle to the chain as it is now, for ``revert``."""
    ...

def revert(snapshot_id: int) -> None:
    """Rolls the chain back to ``snapshot_id``: state, height and time as they were."""
    ...

def set_beacon(seed: bytes | None) -> None:
    """The beacons of the next blocks (the randomness actors read) derive from ``seed`` (bytes)
    instead of the height alone; ``None`` restores the default.
    """
    ...

def mock_job(job_id: str | bytes, result: Any = ..., fault: str | None = ...) -> list[Receipt]:
    """Settles the runner job ``job_id`` (what ``submit_job``, ``http_job``… returned) through
    the chain's real market, with the test chain's mock runners as its committee: every
    member commits to ``result`` (bytes, text, or a value sent as JSON), the aggregator
    reveals, the chain verifies, and the job's callback runs.
    """
    ...

class expect_failure:
    """``with expect_failure(kind=..., match=...):`` — the block must make a call that fails with
    that kind (``"Exception"``, ``"OutOfCycles"``…) and a message containing ``match``. The
    failed call's receipt is ``.receipt`` afterwards.
    """
    kind: str | None
    match: str | None
    receipt: Receipt | None
    def __init__(self, kind: str | None = ..., match: str | None = ...) -> None: ...
    def __enter__(self) -> expect_failure: ...
    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool: ...

class Strategy:
    """Draws values for ``given`` and proposes simpler ones when an example fails."""
    def draw(self, rng: Any) -> Any: ...
    def shrink(self, value: int) -> list[Any]: ...

def integers(min_value: int = ..., max_value: int = ...) -> Strategy:
    """Integers in ``[min_value, max_value]``; failing examples shrink toward 0."""
    ...

def booleans() -> Strategy:
    ...

def just(value: int) -> Strategy:
    ...

def sampled_from(values: Sequence[Any]) -> Strategy:
    """One of ``values``; failing examples shrink toward the first."""
    ...

def lists(elements: Strategy, min_size: int = ..., max_size: int = ...) -> Strategy:
    """Lists of ``elements``; failing examples shrink by dropping and simplifying items."""
    ...

def binary(min_size: int = ..., max_size: int = ...) -> Strategy:
    ...

def text(alphabet: str = ..., min_size: int = ..., max_size: int = ...) -> Strategy:
    ...

def tuples(*parts: Strategy) -> Strategy:
    ...
DEFAULT_EXAMPLES: int

def given(max_examples: int | None = ..., **strategies: Strategy) -> Callable[[Callable[..., Any]], Callable[[], None]]:
    """Runs the test on many drawn examples, each on a fresh chain: ``--fuzz-runs`` if given,
    else ``max_examples``, else 256. The examples come from a seed (``--seed``, and the test's
    name), so every run draws the same ones. A failing example is shrunk to a simpler one that
    still fails, and reported as the falsifying example.
    """
    ...
