//! The cycle and cell cost table: consensus-critical, versioned, and the only place any PVM
//! price is written down.
//!
//! Sources, in order of precedence (see `../shared/spec/README.md`): whitepaper §17.3 (actor
//! API), whitepaper §3 (Python operations and crypto), CIP-3 §2.2 (imports, encode/decode,
//! big-int surcharge, exceptions, serialization). **Any operation the documents do not price
//! costs 1 cycle** ([`cycles::DEFAULT`]). Changing any number here changes consensus: bump
//! [`COST_TABLE_VERSION`] and record the change in `book/src/pvm.md`.

/// Version of this table. Receipts and `cowboy run --json` report it.
pub const COST_TABLE_VERSION: u32 = 2;

/// Cycle prices.
pub mod cycles {
    /// Any Python operation the documents do not price (whitepaper/README rule).
    pub const DEFAULT: u64 = 1;

    // ---- Python operations (whitepaper §3) ----
    /// Arithmetic, bitwise, comparison and unary operators.
    pub const ARITHMETIC: u64 = 1;
    /// A function or method call (the callee's body is charged separately).
    pub const CALL: u64 = 10;
    /// Subscript get/set/delete. The container type is unknown before execution, so every
    /// subscript is priced at the dictionary rate.
    pub const SUBSCRIPT: u64 = 3;
    /// Appending one element to a list (comprehensions, list/tuple/set displays per element).
    pub const LIST_APPEND: u64 = 2;
    /// Inserting one entry into a dictionary (dict displays and comprehensions per entry).
    pub const DICT_SET: u64 = 3;
    /// Per character of string work (concatenation, repetition, join, formatting, methods).
    pub const PER_CHAR: u64 = 1;

    // ---- Exceptions (CIP-3 §2.2: each a fixed base cost) ----
    /// A `raise` statement.
    pub const RAISE: u64 = 10;
    /// Entering a `try` block.
    pub const TRY_ENTER: u64 = 2;
    /// Entering an `except` or `finally` handler.
    pub const HANDLER_ENTER: u64 = 5;

    // ---- Imports (CIP-3 §2.2) ----
    /// First import of a whitelisted module in a call (plus its initialisation cost).
    pub const IMPORT_FIRST: u64 = 100;
    /// A repeated import of a module already imported in the same call.
    pub const IMPORT_CACHED: u64 = 5;
    /// An import refused because the module is not on the whitelist.
    pub const IMPORT_REFUSED: u64 = 50;

    // ---- Dynamic surcharges (CIP-3 §2.2) ----
    /// Big-integer surcharge divisor: an operation on integers costs
    /// `max(bitlen(a), bitlen(b)) / BIGINT_BITS_PER_CYCLE` extra cycles.
    pub const BIGINT_BITS_PER_CYCLE: u64 = 64;
    /// Canonical serialization of a value (arguments, return values, storage, messages):
    /// base cost (plus one cycle per encoded byte).
    pub const SERIALIZE_BASE: u64 = 20;
    /// Per element visited by a builtin that iterates (`sum`, `sorted`, `min`, `list(...)`,
    /// `in` on a sequence, …).
    pub const PER_ELEMENT: u64 = 1;

    // ---- Actor API (whitepaper §17.3; §3 for crypto and hashing) ----
    /// `send_message` per message, payload excluded.
    pub const SEND_MESSAGE: u64 = 80;
    /// `set_timer` / `set_interval` / `cancel_timer` (also the non-refundable scheduling cost
    /// of §5.1a).
    pub const TIMER: u64 = 200;
    /// A storage read.
    pub const STORAGE_READ: u64 = 100;
    /// `submit_job`: the job submission's intrinsic cycles (§17.2 `LlmRequest`, the one number
    /// for a submission from an account or an actor); the dispatcher adds its candidate filters
    /// when the call's effects are applied.
    pub const SUBMIT_JOB: u64 = cowboy_types::intrinsic::JOB_SUBMIT_CYCLES;
    /// `job_status`: a read of the dispatcher's job record (storage-read rate), plus a cycle
    /// per byte of the record decoded.
    pub const JOB_STATUS: u64 = STORAGE_READ;
    /// A storage write or delete.
    pub const STORAGE_WRITE: u64 = 200;
    /// Block information (height, round, chain id, …).
    pub const BLOCK_INFO: u64 = 100;
    /// `emit_event` base cost.
    pub const EMIT_EVENT: u64 = 500;
    /// `emit_event` per byte of topics and data.
    pub const EMIT_EVENT_PER_BYTE: u64 = 5;
    /// BLS12-381 signature verification.
    pub const VERIFY_BLS: u64 = 8_000;
    /// Ed25519 signature verification.
    pub const VERIFY_ED25519: u64 = 5_000;
    /// secp256k1 ECDSA signature verification / recovery.
    pub const VERIFY_SECP256K1: u64 = 10_000;
    /// SHA-256 base cost.
    pub const SHA256_BASE: u64 = 500;
    /// SHA-256 per 64-byte block.
    pub const SHA256_PER_BLOCK: u64 = 8;
    /// Keccak-256 per 32-byte word.
    pub const KECCAK_PER_WORD: u64 = 6;
    /// BLAKE3 per 64-byte block (unpriced by the documents beyond "per algorithm": priced at
    /// the SHA-256 block rate, without its base).
    pub const BLAKE3_PER_BLOCK: u64 = 8;
    /// HKDF randomness derivation.
    pub const RANDOMNESS: u64 = 1_000;
    /// Reading the caller, own address, value or a balance (unpriced: block-info rate).
    pub const CONTEXT_READ: u64 = 100;
}

/// Cell prices (1 cell = 1 byte; whitepaper §17.4, CIP-3 §2.2 metering points).
pub mod cells {
    /// Storage write: per byte of key plus value.
    pub const STORAGE_WRITE_PER_BYTE: u64 = 1;
    /// Return data: per byte.
    pub const RETURN_PER_BYTE: u64 = 1;
    /// Calldata: per byte of arguments.
    pub const CALLDATA_PER_BYTE: u64 = 1;
    /// Event emission: per two bytes of topics and data (0.5 cells/byte, rounded up).
    pub const EVENT_BYTES_PER_CELL: u64 = 2;
    /// Outgoing message: per byte of encoded arguments and method name.
    pub const MESSAGE_PER_BYTE: u64 = 1;
    /// `submit_job`: per byte of the encoded spec (like a transaction's bytes).
    pub const JOB_SPEC_PER_BYTE: u64 = 1;
}

/// Cycles for hashing `len` bytes with SHA-256: `500 + 8 × ⌈len/64⌉`.
pub const fn sha256_cycles(len: usize) -> u64 {
    cycles::SHA256_BASE + cycles::SHA256_PER_BLOCK * (len as u64).div_ceil(64)
}

/// Cycles for PBKDF2-HMAC: each of the `blocks` output blocks takes `iterations` HMACs, each
/// two hashes of one or two blocks; the first of each also hashes the salt, and the key setup
/// hashes the password. Priced at the SHA-256 block rate per compression (4 per HMAC), plus
/// the base once; saturates, so a huge count is refused by the meter rather than wrapping.
pub const fn pbkdf2_cycles(password: usize, salt: usize, iterations: u32, blocks: usize) -> u64 {
    let per_hmac = 4 * cycles::SHA256_PER_BLOCK;
    let hmacs = (iterations as u64).saturating_mul(blocks as u64);
    cycles::SHA256_BASE
        .saturating_add(hmacs.saturating_mul(per_hmac))
        .saturating_add(sha256_cycles(password))
        .saturating_add(sha256_cycles(salt).saturating_mul(blocks as u64))
}

/// Cycles for hashing `len` bytes with Keccak-256: `6 × ⌈len/32⌉` (at least one word).
pub const fn keccak_cycles(len: usize) -> u64 {
    let words = (len as u64).div_ceil(32);
    cycles::KECCAK_PER_WORD * if words == 0 { 1 } else { words }
}

/// Cycles for hashing `len` bytes with BLAKE3.
pub const fn blake3_cycles(len: usize) -> u64 {
    let blocks = (len as u64).div_ceil(64);
    cycles::BLAKE3_PER_BLOCK * if blocks == 0 { 1 } else { blocks }
}

/// The big-integer surcharge for an operation whose largest operand has `bits` bits.
pub const fn bigint_surcharge(bits: u64) -> u64 {
    bits / cycles::BIGINT_BITS_PER_CYCLE
}

/// Cells for an event with `bytes` bytes of topics and data (0.5 cells per byte, rounded up).
pub const fn event_cells(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(cells::EVENT_BYTES_PER_CELL)
}

/// Limits (whitepaper §3, §12.1, §13; CIP-3 §2.2).
pub mod limits {
    /// Python recursion depth (whitepaper: fixed recursion limit 256).
    pub const RECURSION: usize = 256;
    /// Per-call heap memory, counted by the allocator (whitepaper §3: 10 MiB).
    pub const MEMORY_BYTES: usize = 10 * 1024 * 1024;
    /// Largest integer, in bits (CIP-3: 4,096 bits).
    pub const INT_BITS: u64 = 4_096;
    /// Largest return value, in encoded bytes (whitepaper §5.4: 64 KiB).
    pub const RETURN_BYTES: usize = 64 * 1024;
    /// Message-send depth within one transaction (whitepaper §3: 32).
    pub const CALL_DEPTH: usize = 32;
    /// Messages one transaction may enqueue, nested sends included (whitepaper §3: 1,024).
    pub const FANOUT: usize = 1_024;
    /// Active timers per actor (whitepaper §5.1a).
    pub const TIMERS_PER_ACTOR: usize = 1_024;
    /// Bytes one mailbox may hold (whitepaper §3, §13: `mailbox_capacity_bytes`).
    pub const MAILBOX_BYTES: u64 = 1_000_000;
    /// Cycles one timer firing may use (whitepaper §5.1a: `max_cycles_per_fire`).
    pub const CYCLES_PER_FIRE: u64 = 550_000;
    /// Cells one timer firing may use (whitepaper §5.1a: `max_cells_per_fire`).
    pub const CELLS_PER_FIRE: u64 = 550_000;
    /// Smallest per-fire cycle budget: a firing pays the TimerSchedule intrinsic (§17.2).
    pub const MIN_CYCLES_PER_FIRE: u64 = 5_000;
    /// Smallest per-fire cell budget (TimerSchedule intrinsic cells, §17.2).
    pub const MIN_CELLS_PER_FIRE: u64 = 64;
    /// Topics per event.
    pub const EVENT_TOPICS: usize = 4;
    /// Largest encoded value of any kind crossing the boundary (arguments, storage values).
    pub const VALUE_BYTES: usize = 1024 * 1024;
    /// Deepest nesting of a canonically encoded value.
    pub const VALUE_DEPTH: usize = 64;
}
