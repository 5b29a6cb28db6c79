"""Type stubs for ``cowboy_sdk``, the API Cowboy actors import (for editors: Pyright, ruff,
VS Code). Checked against the SDK the PVM runs by the project's stub-drift test."""

from typing import Any, Sequence, TypeVar

_T = TypeVar("_T")

DEFAULT_TIMER_CYCLES: int
DEFAULT_TIMER_CELLS: int
DEFAULT_CALLBACK_FEE: int

def actor(cls: type[_T]) -> type[_T]:
    """Marks ``cls`` as the module's actor. Its public methods become handlers."""
    ...

class Storage:
    """The actor's persistent key/value store."""
    def __getitem__(self, key: Any) -> Any: ...
    def __setitem__(self, key: Any, value: Any) -> None: ...
    def __delitem__(self, key: Any) -> None: ...
    def __contains__(self, key: Any) -> bool: ...
    def get(self, key: Any, default: Any | None = ...) -> Any: ...
    def setdefault(self, key: Any, default: Any | None = ...) -> Any: ...
    def pop(self, key: Any, default: Any = ...) -> Any: ...
    def __repr__(self) -> str: ...
storage: Storage

def caller() -> str:
    """Address of the account or actor that sent the current message."""
    ...

def self_address() -> str:
    """Address of the executing actor."""
    ...

def value() -> int:
    """Base units transferred with the current message."""
    ...

def balance(address: str | None = ...) -> int:
    """Balance of ``address`` (default: this actor), in base units."""
    ...

def block_height() -> int:
    """Height of the executing block."""
    ...

def block_round() -> tuple[int, int]:
    """``(epoch, view)`` of the round in which the executing block was proposed."""
    ...

def block_timestamp() -> int:
    """Timestamp of the executing block, in milliseconds since the Unix epoch."""
    ...

def chain_id() -> int:
    """The chain id."""
    ...

def randomness(label: str | bytes) -> bytes:
    """32 bytes of ``HKDF-SHA256(beacon, label)``: unpredictable before the block, identical on
    every node. ``label`` is ``str`` or ``bytes``; use distinct labels for independent draws.
    """
    ...

def send(to: str, method: str, *args: Any, value: Any = ...) -> None:
    """Sends ``method(*args)`` to actor ``to``, carrying ``value`` base units. Delivered after
    this handler succeeds, within the same transaction (or, when the recipient has used its
    per-block cycle budget, from its mailbox in a later block). Returns the message id as hex.
    """
    ...

def set_timer(height: int, handler: str, *args: Any, cycles: int = ..., cells: int = ..., expires_at: int | None = ..., max_fee_per_cycle: int | None = ..., max_priority_fee_per_cycle: int | None = ...) -> str:
    """Schedules ``self.handler(*args)`` once at block ``height``. Each firing pre-charges
    ``cycles`` and ``cells`` from this actor's balance and refunds the unused part. The two
    ``max_*`` fees are the firing's bid when the timer auction (§5.1b) is active; without them
    the protocol's default bidding agent bids. Returns the timer id as hex.
    """
    ...

def set_interval(every: int, handler: str, *args: Any, cycles: int = ..., cells: int = ..., start: int | None = ..., expires_at: int | None = ..., max_fee_per_cycle: int | None = ..., max_priority_fee_per_cycle: int | None = ...) -> str:
    """Schedules ``self.handler(*args)`` every ``every`` blocks, first at ``start`` (default: the
    next multiple). Returns the timer id as hex.
    """
    ...

def set_storage_quota(size: int) -> None:
    """Asks for a storage quota of ``size`` bytes (between the default 1 MiB and 8 MiB). Growing
    the quota locks a bond from this actor's balance; shrinking it returns the difference.
    """
    ...

def cancel_timer(timer_id: str) -> bool:
    """Cancels a pending timer of this actor. Returns whether it was pending."""
    ...

def emit(name: str, data: bytes | None = ..., topics: Sequence[bytes | str] = ...) -> None:
    """Emits an event. The first topic is ``keccak256(name)``; ``topics`` adds up to three more
    32-byte values; ``data`` is any canonical value.
    """
    ...

def keccak256(data: bytes) -> bytes:
    """Keccak-256 of ``data`` (6 cycles per 32 bytes)."""
    ...

def sha256(data: bytes) -> bytes:
    """SHA-256 of ``data`` (500 + 8 cycles per 64 bytes)."""
    ...

def blake3(data: bytes) -> bytes:
    """BLAKE3 of ``data``."""
    ...

def verify_signature(scheme: str, message: bytes, signature: bytes, key: Any) -> bool:
    """Verifies a signature. ``scheme`` is ``"secp256k1"`` (``key`` is the signer's address,
    ``message`` a 32-byte hash, ``signature`` r‖s‖v), ``"ed25519"`` (32-byte public key) or
    ``"bls12381"`` (48-byte min-pk public key, 96-byte signature).
    """
    ...

def encode(value: Any) -> bytes:
    """The canonical encoding of ``value``."""
    ...

def decode(data: bytes) -> Any:
    """Decodes a canonical encoding."""
    ...

def submit_job(spec: dict[str, Any]) -> str:
    """Submits an off-chain job (CIP-2 §2). ``spec`` is a dict in the job spec's JSON form
    (``cowboy sign`` takes the same): ``input``, ``bounds``, ``schema``, ``verification``,
    ``max_price``, ``tip``, ``timeout_blocks``, ``callback`` and ``required_runner_pool``;
    amounts may be ints, bytes are ``0x``-hex strings. Prefer ``http_job``, ``llm_job`` and
    ``mcp_job``, which build it.
    """
    ...

def http_job(url: str, handler: str, max_price: int, *, method: str = ..., headers: dict[str, str] | None = ..., body: bytes = ..., extract: Sequence[str] = ..., timeout_blocks: int = ..., max_wall_ms: int = ..., max_return_bytes: int = ..., expected_execution_ms: int | None = ..., data_format: str = ..., json_schema: dict[str, Any] | None = ..., verification: str | dict[str, Any] = ..., runners: int = ..., threshold: int = ..., vote_field: str | None = ..., tee_required: bool = ..., tip: int = ..., callback_fee: int = ..., callback_actor: str | None = ..., pool: str | None = ...) -> str:
    """Submits an HTTP job: runners fetch ``url`` and return the response body, or the values at
    the JSON pointers in ``extract``. The result is delivered to ``self.handler(job_id,
    status, result, details)``. Needs the ``http.fetch`` entitlement. ``verification`` is
    ``"none"``, ``"economic_bond"``, ``"majority_vote"`` (with ``vote_field``),
    ``"deterministic"`` or a mode dict; ``runners`` and ``threshold`` default to the chain's
    committee parameters. ``pool`` restricts the job to a runner pool (bytes or hex). Returns
    the job id (see ``submit_job``).
    """
    ...

def llm_job(model: bytes | str, prompt: str, handler: str, max_price: int, *, system: str | None = ..., messages: Sequence[dict[str, str]] | None = ..., max_tokens: int = ..., temperature_milli: int = ..., seed: int | None = ..., timeout_blocks: int = ..., max_wall_ms: int = ..., max_return_bytes: int = ..., expected_execution_ms: int | None = ..., data_format: str = ..., json_schema: dict[str, Any] | None = ..., verification: str | dict[str, Any] = ..., runners: int = ..., threshold: int = ..., vote_field: str | None = ..., tee_required: bool = ..., tip: int = ..., callback_fee: int = ..., callback_actor: str | None = ..., pool: str | None = ...) -> str:
    """Submits an LLM inference with ``model`` (its 32-byte model id, bytes or hex): the
    conversation is ``messages`` (a list of ``{"role", "content"}``) or ``system`` plus
    ``prompt``. Needs the ``llm.infer`` entitlement. Returns the job id (see ``submit_job``).
    """
    ...

def mcp_job(server: str, tool: str, arguments: dict[str, Any], handler: str, max_price: int, *, timeout_blocks: int = ..., max_wall_ms: int = ..., max_return_bytes: int = ..., expected_execution_ms: int | None = ..., data_format: str = ..., json_schema: dict[str, Any] | None = ..., verification: str | dict[str, Any] = ..., runners: int = ..., threshold: int = ..., vote_field: str | None = ..., tee_required: bool = ..., tip: int = ..., callback_fee: int = ..., callback_actor: str | None = ..., pool: str | None = ...) -> str:
    """Calls ``tool`` on the MCP server at ``server`` with ``arguments`` (a JSON object as a
    string). Needs the ``mcp.invoke`` entitlement. Returns the job id (see ``submit_job``).
    """
    ...

def job_status(job_id: str) -> dict[str, Any] | None:
    """The Job Dispatcher's view of a job: a dict with ``status`` (``submitted``, ``assigned``,
    ``committed``, ``verified``, ``settled``, ``failed`` or ``disputed``), ``result`` (bytes
    or None), ``failure``, ``committee``, ``retries``, ``submitter`` and ``callback``; None
    for an unknown id (or one submitted in this same call). 100 cycles.
    """
    ...
