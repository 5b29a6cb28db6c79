"""cowboy_sdk: the developer-facing API for Cowboy actors.

An actor is a class decorated with ``@actor`` (or a plain class named ``Actor``). Its
``__init__`` runs once, at deploy; its public methods are handlers. Instance attributes and
everything in ``self.storage`` persist between calls.

Everything here is a thin, metered layer over ``pvm_host``, the runtime's native interface.
Addresses are ``0x``-prefixed lowercase hex strings; hashes and signatures are ``bytes``.
"""

import pvm_host as _host

__all__ = [
    "actor",
    "Storage",
    "storage",
    "caller",
    "self_address",
    "value",
    "balance",
    "block_height",
    "block_round",
    "block_timestamp",
    "chain_id",
    "randomness",
    "send",
    "set_timer",
    "set_interval",
    "cancel_timer",
    "set_storage_quota",
    "submit_job",
    "http_job",
    "llm_job",
    "mcp_job",
    "job_status",
    "DEFAULT_CALLBACK_FEE",
    "emit",
    "keccak256",
    "sha256",
    "blake3",
    "verify_signature",
    "encode",
    "decode",
    "DEFAULT_TIMER_CYCLES",
    "DEFAULT_TIMER_CELLS",
]

#: Cycles pre-charged per timer firing when not given (below the 550,000 per-fire cap).
DEFAULT_TIMER_CYCLES = 100_000
#: Cells pre-charged per timer firing when not given.
DEFAULT_TIMER_CELLS = 10_000

#: Base units escrowed for delivering a job's result to its callback handler when not given
#: (1 CBY: half buys the handler some 50,000 cycles at a devnet's basefee, half its cells;
#: what it does not use is refunded).
DEFAULT_CALLBACK_FEE = 1_000_000_000

_MISSING = object()


def actor(cls):
    """Marks ``cls`` as the module's actor. Its public methods become handlers."""
    return cls


class Storage:
    """The actor's persistent key/value store.

    Keys and values are canonical values (None, bool, int, str, bytes, lists, tuples, dicts).
    Reads cost 100 cycles; writes and deletes cost 200 cycles plus one cell per byte of key and
    value. Changes are committed only if the call succeeds.
    """

    def __getitem__(self, key):
        raw = _host.storage_get(_host.encode(key))
        if raw is None:
            raise KeyError(key)
        return _host.decode(raw)

    def __setitem__(self, key, value):
        _host.storage_set(_host.encode(key), _host.encode(value))

    def __delitem__(self, key):
        encoded = _host.encode(key)
        if _host.storage_get(encoded) is None:
            raise KeyError(key)
        _host.storage_delete(encoded)

    def __contains__(self, key):
        return _host.storage_get(_host.encode(key)) is not None

    def get(self, key, default=None):
        raw = _host.storage_get(_host.encode(key))
        if raw is None:
            return default
        return _host.decode(raw)

    def setdefault(self, key, default=None):
        encoded = _host.encode(key)
        raw = _host.storage_get(encoded)
        if raw is None:
            _host.storage_set(encoded, _host.encode(default))
            return default
        return _host.decode(raw)

    def pop(self, key, default=_MISSING):
        encoded = _host.encode(key)
        raw = _host.storage_get(encoded)
        if raw is None:
            if default is _MISSING:
                raise KeyError(key)
            return default
        _host.storage_delete(encoded)
        return _host.decode(raw)

    def __repr__(self):
        return "<Storage>"


#: The storage of the executing actor (also available as ``self.storage``).
storage = Storage()


def caller():
    """Address of the account or actor that sent the current message."""
    return _host.caller()


def self_address():
    """Address of the executing actor."""
    return _host.self_address()


def value():
    """Base units transferred with the current message."""
    return _host.value()


def balance(address=None):
    """Balance of ``address`` (default: this actor), in base units."""
    return _host.balance(address)


def block_height():
    """Height of the executing block."""
    return _host.block_height()


def block_round():
    """``(epoch, view)`` of the round in which the executing block was proposed."""
    return _host.block_round()


def block_timestamp():
    """Timestamp of the executing block, in milliseconds since the Unix epoch."""
    return _host.block_timestamp()


def chain_id():
    """The chain id."""
    return _host.chain_id()


def randomness(label):
    """32 bytes of ``HKDF-SHA256(beacon, label)``: unpredictable before the block, identical on
    every node. ``label`` is ``str`` or ``bytes``; use distinct labels for independent draws."""
    if isinstance(label, str):
        label = label.encode()
    return _host.randomness(label)


def send(to, method, *args, value=0):
    """Sends ``method(*args)`` to actor ``to``, carrying ``value`` base units. Delivered after
    this handler succeeds, within the same transaction (or, when the recipient has used its
    per-block cycle budget, from its mailbox in a later block). Returns the message id as hex."""
    return _host.send_message(to, method, _host.encode(list(args)), value)


def set_timer(height, handler, *args, cycles=DEFAULT_TIMER_CYCLES, cells=DEFAULT_TIMER_CELLS,
              expires_at=None, max_fee_per_cycle=None, max_priority_fee_per_cycle=None):
    """Schedules ``self.handler(*args)`` once at block ``height``. Each firing pre-charges
    ``cycles`` and ``cells`` from this actor's balance and refunds the unused part. The two
    ``max_*`` fees are the firing's bid when the timer auction (§5.1b) is active; without them
    the protocol's default bidding agent bids. Returns the timer id as hex."""
    return _host.set_timer(height, 0, handler, _host.encode(list(args)), cycles, cells,
                           [expires_at, max_fee_per_cycle, max_priority_fee_per_cycle])


def set_interval(every, handler, *args, cycles=DEFAULT_TIMER_CYCLES, cells=DEFAULT_TIMER_CELLS,
                 start=None, expires_at=None, max_fee_per_cycle=None,
                 max_priority_fee_per_cycle=None):
    """Schedules ``self.handler(*args)`` every ``every`` blocks, first at ``start`` (default:
    the next multiple). Returns the timer id as hex."""
    if start is None:
        start = block_height() + every
    return _host.set_timer(start, every, handler, _host.encode(list(args)), cycles, cells,
                           [expires_at, max_fee_per_cycle, max_priority_fee_per_cycle])


def set_storage_quota(size):
    """Asks for a storage quota of ``size`` bytes (between the default 1 MiB and 8 MiB). Growing
    the quota locks a bond from this actor's balance; shrinking it returns the difference."""
    _host.set_storage_quota(size)


def cancel_timer(timer_id):
    """Cancels a pending timer of this actor. Returns whether it was pending."""
    return _host.cancel_timer(timer_id)


def emit(name, data=None, topics=()):
    """Emits an event. The first topic is ``keccak256(name)``; ``topics`` adds up to three more
    32-byte values; ``data`` is any canonical value."""
    all_topics = [_host.keccak256(name.encode())]
    for t in topics:
        if isinstance(t, str):
            t = _host.keccak256(t.encode())
        all_topics.append(t)
    _host.emit_event(all_topics, _host.encode(data))


def keccak256(data):
    """Keccak-256 of ``data`` (6 cycles per 32 bytes)."""
    return _host.keccak256(data)


def sha256(data):
    """SHA-256 of ``data`` (500 + 8 cycles per 64 bytes)."""
    return _host.sha256(data)


def blake3(data):
    """BLAKE3 of ``data``."""
    return _host.blake3(data)


def verify_signature(scheme, message, signature, key):
    """Verifies a signature. ``scheme`` is ``"secp256k1"`` (``key`` is the signer's address,
    ``message`` a 32-byte hash, ``signature`` r‖s‖v), ``"ed25519"`` (32-byte public key) or
    ``"bls12381"`` (48-byte min-pk public key, 96-byte signature)."""
    return _host.verify_signature(scheme, message, signature, key)


def encode(value):
    """The canonical encoding of ``value``."""
    return _host.encode(value)


def decode(data):
    """Decodes a canonical encoding."""
    return _host.decode(data)


def submit_job(spec):
    """Submits an off-chain job (CIP-2 §2). ``spec`` is a dict in the job spec's JSON form
    (``cowboy sign`` takes the same): ``input``, ``bounds``, ``schema``, ``verification``,
    ``max_price``, ``tip``, ``timeout_blocks``, ``callback`` and ``required_runner_pool``;
    amounts may be ints, bytes are ``0x``-hex strings. Prefer ``http_job``, ``llm_job`` and
    ``mcp_job``, which build it.

    The spec is checked now: a bad field raises ``ValueError`` naming it, a job type this
    actor's manifest did not declare raises ``PermissionError``. When the handler succeeds the
    Job Dispatcher escrows ``max_price + tip + 2 × callback fee`` from this actor's balance and
    takes the job; if it cannot (no runner qualifies, too little balance) the whole call fails.
    The result arrives later as a message to the callback handler:
    ``handler(job_id, status, result, details)``. Costs 10,000 cycles, one cell per byte of the
    encoded spec, and the dispatcher's candidate filters (500 cycles per registered runner).
    Returns the job id as hex."""
    return _host.submit_job(_host.encode(_json_form(spec)))


def _json_form(value):
    # Amounts and counts are decimal strings or numbers in the JSON form; bytes are hex.
    if isinstance(value, dict):
        return {k: _json_form(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_form(v) for v in value]
    if isinstance(value, bytes):
        return "0x" + value.hex()
    return value


def _job(job_input, handler, max_price, *, timeout_blocks, max_wall_ms, max_tokens,
         max_return_bytes, expected_execution_ms, data_format, json_schema, verification,
         runners, threshold, vote_field, tee_required, tip, callback_fee, callback_actor,
         pool):
    if verification == "majority_vote":
        if vote_field is None:
            raise ValueError("verification='majority_vote' needs vote_field (a JSON pointer)")
        mode = {"majority_vote": {"vote_field": vote_field}}
    elif isinstance(verification, dict):
        mode = verification
    else:
        mode = {verification: {}}
    if data_format == "json":
        fmt = {"json": {"schema": json_schema}} if json_schema is not None else {"json": {}}
    else:
        fmt = {data_format: {}}
    spec = {
        "input": job_input,
        "bounds": {"max_wall_ms": max_wall_ms, "max_tokens": max_tokens},
        "schema": {
            "max_return_bytes": max_return_bytes,
            "expected_execution_ms": expected_execution_ms or max(1, max_wall_ms // 2),
            "data_format": fmt,
        },
        "verification": {"mode": mode, "runners": runners, "threshold": threshold,
                         "tee_required": tee_required},
        "max_price": str(max_price),
        "tip": str(tip),
        "timeout_blocks": timeout_blocks,
        "callback": {"actor": callback_actor or self_address(), "handler": handler,
                     "max_fee": str(callback_fee)},
    }
    if pool is not None:
        spec["required_runner_pool"] = pool
    return submit_job(spec)


def http_job(url, handler, max_price, *, method="GET", headers=None, body=b"", extract=(),
             timeout_blocks=20, max_wall_ms=10_000, max_return_bytes=4_096,
             expected_execution_ms=None, data_format="json", json_schema=None,
             verification="none", runners=0, threshold=0, vote_field=None,
             tee_required=False, tip=0, callback_fee=DEFAULT_CALLBACK_FEE,
             callback_actor=None, pool=None):
    """Submits an HTTP job: runners fetch ``url`` and return the response body, or the values
    at the JSON pointers in ``extract``. The result is delivered to ``self.handler(job_id,
    status, result, details)``. Needs the ``http.fetch`` entitlement. ``verification`` is
    ``"none"``, ``"economic_bond"``, ``"majority_vote"`` (with ``vote_field``),
    ``"deterministic"`` or a mode dict; ``runners`` and ``threshold`` default to the chain's
    committee parameters. ``pool`` restricts the job to a runner pool (bytes or hex). Returns
    the job id (see ``submit_job``)."""
    request = {
        "method": method,
        "url": url,
        "headers": [{"name": k, "value": v} for k, v in sorted((headers or {}).items())],
        "body": body,
        "extract": list(extract),
    }
    return _job({"http": request}, handler, max_price, timeout_blocks=timeout_blocks,
                max_wall_ms=max_wall_ms, max_tokens=0, max_return_bytes=max_return_bytes,
                expected_execution_ms=expected_execution_ms, data_format=data_format,
                json_schema=json_schema, verification=verification, runners=runners,
                threshold=threshold, vote_field=vote_field, tee_required=tee_required, tip=tip,
                callback_fee=callback_fee, callback_actor=callback_actor, pool=pool)


def llm_job(model, prompt, handler, max_price, *, system=None, messages=None, max_tokens=256,
            temperature_milli=0, seed=None, timeout_blocks=20, max_wall_ms=30_000,
            max_return_bytes=8_192, expected_execution_ms=None, data_format="text",
            json_schema=None, verification="none", runners=0, threshold=0, vote_field=None,
            tee_required=False, tip=0, callback_fee=DEFAULT_CALLBACK_FEE,
            callback_actor=None, pool=None):
    """Submits an LLM inference with ``model`` (its 32-byte model id, bytes or hex): the
    conversation is ``messages`` (a list of ``{"role", "content"}``) or ``system`` plus
    ``prompt``. Needs the ``llm.infer`` entitlement. Returns the job id (see
    ``submit_job``)."""
    if messages is None:
        messages = []
        if system is not None:
            messages.append({"role": "system", "content": system})
        messages.append({"role": "user", "content": prompt})
    request = {"model": model, "messages": messages, "max_tokens": max_tokens,
               "temperature_milli": temperature_milli, "seed": seed}
    return _job({"llm": request}, handler, max_price, timeout_blocks=timeout_blocks,
                max_wall_ms=max_wall_ms, max_tokens=max_tokens,
                max_return_bytes=max_return_bytes,
                expected_execution_ms=expected_execution_ms, data_format=data_format,
                json_schema=json_schema, verification=verification, runners=runners,
                threshold=threshold, vote_field=vote_field, tee_required=tee_required, tip=tip,
                callback_fee=callback_fee, callback_actor=callback_actor, pool=pool)


def mcp_job(server, tool, arguments, handler, max_price, *, timeout_blocks=20,
            max_wall_ms=30_000, max_return_bytes=8_192, expected_execution_ms=None,
            data_format="json", json_schema=None, verification="none", runners=0,
            threshold=0, vote_field=None, tee_required=False, tip=0,
            callback_fee=DEFAULT_CALLBACK_FEE, callback_actor=None, pool=None):
    """Calls ``tool`` on the MCP server at ``server`` with ``arguments`` (a JSON object as a
    string). Needs the ``mcp.invoke`` entitlement. Returns the job id (see ``submit_job``)."""
    request = {"server": server, "tool": tool, "arguments": arguments}
    return _job({"mcp": request}, handler, max_price, timeout_blocks=timeout_blocks,
                max_wall_ms=max_wall_ms, max_tokens=0, max_return_bytes=max_return_bytes,
                expected_execution_ms=expected_execution_ms, data_format=data_format,
                json_schema=json_schema, verification=verification, runners=runners,
                threshold=threshold, vote_field=vote_field, tee_required=tee_required, tip=tip,
                callback_fee=callback_fee, callback_actor=callback_actor, pool=pool)


def job_status(job_id):
    """The Job Dispatcher's view of a job: a dict with ``status`` (``submitted``,
    ``assigned``, ``committed``, ``verified``, ``settled``, ``failed`` or ``disputed``),
    ``result`` (bytes or None), ``failure``, ``committee``, ``retries``, ``submitter`` and
    ``callback``; None for an unknown id (or one submitted in this same call). 100 cycles."""
    if isinstance(job_id, bytes):
        job_id = "0x" + job_id.hex()
    return _host.job_status(job_id)
