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
