//! Snapshots: the state of a chain written as a genesis that a new chain starts from
//! (`cowboy devnet snapshot save`, `cowboy devnet up --from-snapshot`, `cowboy node init
//! --genesis`), like anvil's `--dump-state` / `--load-state`.
//!
//! A new chain starts at height 0 with its own validators, so a snapshot cannot carry the
//! source state byte for byte. [`rule`] decides, from the key alone, what happens to each state
//! entry (the table is documented in `book/src/reference/snapshots.md`):
//! - accounts, code, actor storage, the Entitlement Registry, mailboxes and chain counters are
//!   **carried** as they are;
//! - timers are carried with their heights **rebased**: a timer due `k` blocks after the
//!   snapshot is due at height `k` of the new chain; their indexes are rebuilt from them;
//! - validators, parameters, the basefees, the supply and the system actors' records are
//!   **regenerated** by the genesis (parameters and the TEE key are copied into its fields);
//! - state tied to the source chain's runners and history (the runner market's system actors,
//!   delivery dedup windows, the timer fairness window) is **dropped**.
//!
//! The genesis root of a chain started from a snapshot is therefore not the source root (its
//! validators and heights differ), but it is a function of the snapshot file and the new
//! validators alone, and a snapshot of that chain at height 0 carries the same entries again.

use crate::{
    ExecError, GenesisError, Parameters,
    genesis::{Genesis, GenesisValidator},
    params::{BASEFEE_ACTOR, GOVERNANCE},
    runners::tee,
    world::{World, decode_due, encode_due},
};
use cowboy_state::{StateRead, successor};
use cowboy_types::{
    Account, Address, DeferredOrigin, Hash, MailboxMessage, Validator,
    codec::{decode_strict, read_varint},
    json::{Amount, HexBytes},
    runner::{actors, storage as runner_storage},
    state::key,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Where a snapshot was taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub chain_id: u64,
    /// The height whose post-state was saved.
    pub height: u64,
    pub block_hash: Hash,
    pub state_root: Hash,
}

/// One state entry, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub key: HexBytes,
    pub value: HexBytes,
}

/// The state a genesis carries over from another chain: entries in key order, each one that
/// [`rule`] carries (timers already rebased).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarriedState {
    pub source: Source,
    pub entries: Vec<Entry>,
}

/// What a snapshot does with a state entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Written to the new chain as it is.
    Carry,
    /// A timer's due-queue entry: carried with its heights rebased; its place, expiry entry
    /// and its creator's count are rebuilt from it.
    Timer,
    /// Written by every genesis from its own fields, or rebuilt from carried entries.
    Regenerated,
    /// Tied to the source chain's runners or recent history: not carried.
    Dropped,
}

/// Addresses `0x00…00` to `0x00…ff` belong to the protocol's system actors.
fn is_system(address: &[u8]) -> bool {
    address.len() >= 20 && address[..19].iter().all(|b| *b == 0)
}

/// The chain counters a genesis writes itself.
const REGENERATED_COUNTERS: [&str; 3] = ["chain_id", "supply", "inflation"];

/// What happens to the entry under `k` (`None`: a key this version does not know, so it cannot
/// say whether carrying it is safe).
pub fn rule(k: &[u8]) -> Option<Rule> {
    let address = k.get(1..21);
    Some(match *k.first()? {
        key::CHAIN => match std::str::from_utf8(&k[1..]) {
            Ok(name) if REGENERATED_COUNTERS.contains(&name) => Rule::Regenerated,
            _ => Rule::Carry,
        },
        key::ACCOUNT => match address {
            // System actors' balances are the runner market's stakes, escrows and fees.
            Some(a) if is_system(a) => Rule::Dropped,
            _ => Rule::Carry,
        },
        key::CODE => Rule::Carry,
        key::STORAGE => match address {
            // The Entitlement Registry's grants are dropped until a loader checks every record
            // and index of it: a malformed one halts the chain when touched, and grants whose
            // windows are source-chain heights would come back to life.
            Some(a) if a == actors::ENTITLEMENT_REGISTRY.0.as_slice() => {
                if &k[21..] == runner_storage::SYSTEM_ACTOR {
                    Rule::Regenerated
                } else {
                    Rule::Dropped
                }
            }
            Some(a) if a == GOVERNANCE.0.as_slice() || a == BASEFEE_ACTOR.0.as_slice() => {
                Rule::Regenerated
            }
            Some(a) if a == actors::TEE_VERIFIER.0.as_slice() => Rule::Regenerated,
            Some(a) if is_system(a) => Rule::Dropped,
            _ => Rule::Carry,
        },
        key::TIMER_DUE => Rule::Timer,
        key::TIMER | key::TIMER_EXPIRY | key::TIMER_COUNT => Rule::Regenerated,
        key::MAILBOX | key::MAILBOX_SIZE | key::ORIGIN => Rule::Carry,
        key::DEDUP | key::DEDUP_EXPIRY => Rule::Dropped,
        key::VALIDATOR => Rule::Regenerated,
        key::TIMER_FIRES | key::TIMER_FIRE_LOG => Rule::Dropped,
        _ => return None,
    })
}

/// `bytes` as exactly one varint.
fn varint(bytes: &[u8]) -> Option<u64> {
    let mut buf = commonware_codec::Copying(bytes);
    let v = read_varint(&mut buf, "value").ok()?;
    (bytes::Buf::remaining(&buf) == 0).then_some(v)
}

/// The largest chain counter a snapshot may carry: far from wrapping.
const MAX_COUNTER: u64 = 1 << 62;

/// A height of the source chain as the new chain counts it: `snapshot + k` becomes `k`, and a
/// height already reached becomes 1 (the first block).
fn rebase(height: u64, snapshot: u64) -> u64 {
    height.saturating_sub(snapshot).max(1)
}

/// A saved snapshot and what became of the source's entries.
#[derive(Clone, Debug)]
pub struct Saved {
    pub genesis: Genesis,
    pub counts: Counts,
}

/// What became of a source state's entries, as a snapshot reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Counts {
    /// Entries carried (timers included).
    pub carried: usize,
    /// Timers carried with rebased heights.
    pub timers: usize,
    /// Entries a new genesis writes itself (validators, parameters, system actors, supply).
    pub regenerated: usize,
    /// Entries tied to the source chain's runners or recent history, not carried.
    pub dropped: usize,
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} entries carried ({} timers rebased), {} regenerated by the new genesis, {} dropped",
            self.carried, self.timers, self.regenerated, self.dropped
        )
    }
}

fn corrupt(what: impl Into<String>, reason: impl ToString) -> ExecError {
    ExecError::Corrupt {
        what: what.into(),
        reason: reason.to_string(),
    }
}

/// Reads a whole state (the post-state of block `height`, with its hash and root) as a
/// genesis: validators, parameters and the TEE key in its fields, everything else that
/// [`rule`] carries in [`Genesis::carried`].
pub fn save(
    state: &dyn StateRead,
    height: u64,
    block_hash: Hash,
    state_root: Hash,
) -> Result<Saved, ExecError> {
    let chain_id = match state.get(&key::chain("chain_id"))? {
        Some(b) => varint(&b).ok_or_else(|| corrupt("chain id", "not one varint"))?,
        None => return Err(corrupt("chain id", "missing: this is not a chain's state")),
    };
    let parameters = Parameters::load(|k| {
        state
            .get(&key::storage(&GOVERNANCE, k.as_bytes()))
            .map_err(Into::into)
    })?;
    let tee_simulated_key = match state.get(&key::storage(
        &actors::TEE_VERIFIER,
        tee::keys::SIMULATED_KEY,
    ))? {
        Some(b) => {
            Some(Hash::from_slice(&b).ok_or_else(|| corrupt("TEE simulated key", "not 32 bytes"))?)
        }
        None => None,
    };
    let mut saved = Saved {
        genesis: Genesis {
            chain_id,
            genesis_time_ms: 0,
            allocations: Vec::new(),
            validators: Vec::new(),
            runners: Vec::new(),
            threshold_public: None,
            tee_simulated_key,
            parameters,
            carried: None,
        },
        counts: Counts::default(),
    };
    let mut entries = BTreeMap::new();
    let mut from = Vec::new();
    loop {
        let page = state.range(&from, None, 1_024)?;
        let Some((last, _)) = page.last() else { break };
        from = successor(last);
        for (k, v) in page {
            match rule(&k) {
                Some(Rule::Carry) => {
                    entries.insert(k, v);
                }
                Some(Rule::Timer) => {
                    let (id, mut t) = decode_due(&v)?;
                    // Expired at the snapshot (and only waiting for its budgeted cleanup): it
                    // must not come back to life at height 1.
                    if t.expires_at.is_some_and(|e| e <= height) {
                        saved.counts.dropped += 1;
                        continue;
                    }
                    t.next_height = rebase(t.next_height, height);
                    t.expires_at = t.expires_at.map(|e| rebase(e, height));
                    entries.insert(key::timer_due(t.next_height, t.seq), encode_due(&id, &t));
                    saved.counts.timers += 1;
                }
                Some(Rule::Regenerated) => {
                    if k.first() == Some(&key::VALIDATOR) {
                        let address = k
                            .get(1..)
                            .and_then(Address::from_slice)
                            .ok_or_else(|| corrupt("validator key", "not an address"))?;
                        let v: Validator = decode_strict(&v)
                            .map_err(|e| corrupt(format!("validator {address}"), e))?;
                        saved.genesis.validators.push(GenesisValidator {
                            address,
                            stake: Amount(v.stake),
                            public_key: HexBytes(v.public_key),
                        });
                    }
                    saved.counts.regenerated += 1;
                }
                Some(Rule::Dropped) => saved.counts.dropped += 1,
                None => {
                    return Err(corrupt(
                        format!("state key 0x{}", hex::encode(&k)),
                        "its kind is unknown to this version, which cannot tell whether a snapshot may carry it",
                    ));
                }
            }
        }
    }
    saved.counts.carried = entries.len();
    saved.genesis.carried = Some(CarriedState {
        source: Source {
            chain_id,
            height,
            block_hash,
            state_root,
        },
        entries: entries
            .into_iter()
            .map(|(k, v)| Entry {
                key: HexBytes(k),
                value: HexBytes(v),
            })
            .collect(),
    });
    Ok(saved)
}

impl CarriedState {
    /// Whether the carried state has an account at `address`.
    pub fn has_account(&self, address: &Address) -> bool {
        let k = key::account(address);
        self.entries.binary_search_by(|e| e.key.0.cmp(&k)).is_ok()
    }

    /// Base units the carried state holds: balances, values in mailboxes and deferred
    /// budgets held in escrow (`None` if they overflow a `u64` or a record does not decode;
    /// [`Self::validate`] says which).
    pub fn value(&self) -> Option<u64> {
        let mut total: u128 = 0;
        for e in &self.entries {
            total += match *e.key.0.first()? {
                key::ACCOUNT => decode_strict::<Account>(&e.value.0).ok()?.balance as u128,
                key::MAILBOX => decode_strict::<MailboxMessage>(&e.value.0).ok()?.value as u128,
                key::ORIGIN => decode_strict::<DeferredOrigin>(&e.value.0).ok()?.escrow(),
                _ => 0,
            };
        }
        u64::try_from(total).ok()
    }

    /// Checks that every entry is one a snapshot carries, in key order, and decodes as the
    /// record its key names; that every actor's code is carried; and that carried sequence
    /// counters are above every carried timer's and message's sequence number (so the new
    /// chain never reuses one).
    pub fn validate(&self, params: &Parameters) -> Result<(), GenesisError> {
        let invalid = |i: usize, part: &str, message: String| {
            Err(GenesisError::Invalid {
                field: format!("carried.entries[{i}].{part}"),
                message,
            })
        };
        let mut codes = BTreeSet::new();
        let mut actor_codes = Vec::new();
        let mut timer_ids = BTreeSet::new();
        let mut counters = BTreeMap::new();
        let (mut max_timer_seq, mut max_mailbox_seq) = (None::<u64>, None::<u64>);
        // Bookkeeping the records keep about each other, recounted from the entries.
        let mut declared_used: BTreeMap<&[u8], (usize, u64)> = BTreeMap::new();
        let mut stored: BTreeMap<&[u8], (usize, u64)> = BTreeMap::new();
        let mut declared_pending: BTreeMap<Hash, (usize, u64)> = BTreeMap::new();
        let mut queued: BTreeMap<Hash, (usize, u64)> = BTreeMap::new();
        let mut declared_size: BTreeMap<&[u8], (usize, u64)> = BTreeMap::new();
        let mut queued_bytes: BTreeMap<Address, (usize, u64)> = BTreeMap::new();
        let mut per_creator: BTreeMap<Address, u64> = BTreeMap::new();
        for (i, e) in self.entries.iter().enumerate() {
            let (k, v) = (&e.key.0, &e.value.0);
            if i > 0 && self.entries[i - 1].key.0 >= *k {
                return invalid(
                    i,
                    "key",
                    "entries must be in strictly ascending key order".into(),
                );
            }
            match rule(k) {
                Some(Rule::Carry | Rule::Timer) => {}
                Some(Rule::Regenerated) => {
                    return invalid(
                        i,
                        "key",
                        format!(
                            "0x{} is written by the genesis itself (validators, parameters, system actors, supply, timer indexes), not carried",
                            hex::encode(k)
                        ),
                    );
                }
                Some(Rule::Dropped) | None => {
                    return invalid(
                        i,
                        "key",
                        format!("0x{} is not state a snapshot carries", hex::encode(k)),
                    );
                }
            }
            let bad =
                |what: &str, reason: String| invalid(i, "value", format!("not {what}: {reason}"));
            match k[0] {
                key::CHAIN => {
                    let name = String::from_utf8_lossy(&k[1..]).into_owned();
                    match varint(v) {
                        Some(n) if n > MAX_COUNTER => {
                            return bad(
                                "a counter far from wrapping",
                                format!("{n} is above 2^62"),
                            );
                        }
                        Some(n) => {
                            counters.insert(name, n);
                        }
                        None => return bad("a counter", "expected one varint".into()),
                    }
                }
                key::ACCOUNT => {
                    if k.len() != 21 {
                        return invalid(
                            i,
                            "key",
                            "an account key is 0x01 and a 20-byte address".into(),
                        );
                    }
                    let account: Account = match decode_strict(v) {
                        Ok(a) => a,
                        Err(e) => return bad("an account", e.to_string()),
                    };
                    if let Some(actor) = account.actor {
                        if cowboy_pvm::stdlib::PvmVersion::new(actor.pvm_version).is_none() {
                            return bad(
                                "an actor this PVM runs",
                                format!(
                                    "PVM version {} is unknown (this node implements 1 to {})",
                                    actor.pvm_version,
                                    cowboy_pvm::stdlib::PvmVersion::CURRENT.get()
                                ),
                            );
                        }
                        actor_codes.push((i, actor.code_hash));
                        declared_used.insert(&k[1..21], (i, actor.storage.used));
                    }
                }
                key::CODE => {
                    let hash = match Hash::from_slice(&k[1..]) {
                        Some(h) => h,
                        None => {
                            return invalid(
                                i,
                                "key",
                                "a code key is 0x02 and a 32-byte hash".into(),
                            );
                        }
                    };
                    match std::str::from_utf8(v) {
                        Ok(source) if cowboy_types::code_hash(source) == hash => {
                            // The checks a deploy makes: code that skipped them could escape
                            // the sandbox, or halt every node that loads it.
                            let checked = cowboy_pvm::validate::check_normalization(source)
                                .and_then(|()| cowboy_pvm::validate::validate(source).map(|_| ()));
                            if let Err(diagnostics) = checked {
                                let first = diagnostics
                                    .first()
                                    .map(|d| format!("line {}:{}: {}", d.line, d.column, d.message))
                                    .unwrap_or_default();
                                return bad("actor code this PVM accepts", first);
                            }
                            codes.insert(hash);
                        }
                        Ok(_) => {
                            return bad("the source its key names", "its keccak256 differs".into());
                        }
                        Err(e) => return bad("UTF-8 source", e.to_string()),
                    }
                }
                key::STORAGE if k.len() < 21 => {
                    return invalid(
                        i,
                        "key",
                        "a storage key is 0x03, a 20-byte address and the actor's key".into(),
                    );
                }
                key::STORAGE if !is_system(&k[1..21]) => {
                    // An actor's quota counts its keys and values (without the prefix).
                    let entry = stored.entry(&k[1..21]).or_insert((i, 0));
                    entry.1 += (k.len() - 21 + v.len()) as u64;
                }
                key::TIMER_DUE => match decode_due(v) {
                    Ok((id, t)) => {
                        if key::timer_due(t.next_height, t.seq) != *k || t.next_height == 0 {
                            return invalid(i, "key", "a timer's key must be its next height (at least 1) and sequence number".into());
                        }
                        if !timer_ids.insert(id) {
                            return invalid(i, "value", format!("timer {id} is carried twice"));
                        }
                        max_timer_seq = max_timer_seq.max(Some(t.seq));
                        // What the new chain's parameters let a timer be: one that can never
                        // fit its lane would stop every timer behind it.
                        let tp = &params.timer;
                        let fits = t.cycles_per_fire <= tp.max_cycles_per_fire
                            && t.cycles_per_fire <= params.lanes.timer_cycles
                            && t.cells_per_fire <= tp.max_cells_per_fire
                            && t.expires_at.is_none_or(|e| e >= t.next_height);
                        if !fits {
                            return bad(
                                "a timer this chain can fire",
                                format!(
                                    "{} cycles and {} cells per fire, expiring at {:?}, against max_cycles_per_fire {}, the timer lane's {} cycles and max_cells_per_fire {} (a smaller --cycle-budget shrinks them)",
                                    t.cycles_per_fire,
                                    t.cells_per_fire,
                                    t.expires_at,
                                    tp.max_cycles_per_fire,
                                    params.lanes.timer_cycles,
                                    tp.max_cells_per_fire
                                ),
                            );
                        }
                        let n = per_creator.entry(t.creator).or_insert(0u64);
                        *n += 1;
                        if *n > tp.max_timers_per_actor {
                            return bad(
                                "a timer within its creator's cap",
                                format!(
                                    "{} has more than max_timers_per_actor ({})",
                                    t.creator, tp.max_timers_per_actor
                                ),
                            );
                        }
                    }
                    Err(e) => return bad("a timer", e.to_string()),
                },
                key::MAILBOX => {
                    let Some(seq) = key::be_u64(k, 1).filter(|_| k.len() == 9) else {
                        return invalid(
                            i,
                            "key",
                            "a mailbox key is 0x08 and an 8-byte sequence number".into(),
                        );
                    };
                    let m = match decode_strict::<MailboxMessage>(v) {
                        Ok(m) => m,
                        Err(e) => return bad("a mailbox message", e.to_string()),
                    };
                    queued.entry(m.origin).or_insert((i, 0)).1 += 1;
                    queued_bytes.entry(m.to).or_insert((i, 0)).1 +=
                        cowboy_pvm::host::mailbox_bytes(&m.method, &m.args);
                    max_mailbox_seq = max_mailbox_seq.max(Some(seq));
                }
                key::MAILBOX_SIZE => match varint(v).filter(|_| k.len() == 21) {
                    Some(size) => {
                        declared_size.insert(&k[1..], (i, size));
                    }
                    None => {
                        return bad(
                            "a mailbox size",
                            "expected an address key and one varint".into(),
                        );
                    }
                },
                key::ORIGIN if k.len() != 33 => {
                    return invalid(i, "key", "an origin key is 0x0a and a 32-byte hash".into());
                }
                key::ORIGIN => match decode_strict::<DeferredOrigin>(v) {
                    Ok(o) => {
                        let room = params.lanes.system_cycles.min(params.lanes.user_cycles);
                        if o.remaining_cycles > room {
                            return bad(
                                "a deferred budget this chain can deliver",
                                format!(
                                    "{} cycles remain, above the {room} a lane holds",
                                    o.remaining_cycles
                                ),
                            );
                        }
                        let origin = Hash::from_slice(&k[1..]).unwrap_or(Hash::ZERO);
                        declared_pending.insert(origin, (i, o.pending));
                    }
                    Err(e) => return bad("a deferred budget", e.to_string()),
                },
                _ => {}
            }
        }
        let mismatch = |i: usize, message: String| {
            Err(GenesisError::Invalid {
                field: format!("carried.entries[{i}]"),
                message,
            })
        };
        for (address, (i, _)) in &stored {
            if !declared_used.contains_key(address) {
                return mismatch(
                    *i,
                    format!(
                        "storage of 0x{}, which is not a carried actor",
                        hex::encode(address)
                    ),
                );
            }
        }
        for (address, (i, used)) in &declared_used {
            let held = stored.get(address).map_or(0, |s| s.1);
            if held != *used {
                return mismatch(
                    *i,
                    format!(
                        "the actor's storage.used is {used} bytes, but its carried storage holds {held}"
                    ),
                );
            }
        }
        for (origin, (i, count)) in &queued {
            match declared_pending.get(origin) {
                Some((_, pending)) if pending == count => {}
                Some((j, pending)) => {
                    return mismatch(
                        *j,
                        format!(
                            "deferred budget {origin} has {pending} messages pending, but {count} are carried"
                        ),
                    );
                }
                None => {
                    return mismatch(
                        *i,
                        format!("a mailbox message's deferred budget {origin} is not carried"),
                    );
                }
            }
        }
        for (origin, (j, pending)) in &declared_pending {
            if *pending > 0 && !queued.contains_key(origin) {
                return mismatch(
                    *j,
                    format!(
                        "deferred budget {origin} has {pending} messages pending, but none is carried"
                    ),
                );
            }
        }
        for (recipient, (i, bytes)) in &queued_bytes {
            match declared_size.get(recipient.0.as_slice()) {
                Some((_, size)) if size == bytes => {}
                _ => {
                    return mismatch(
                        *i,
                        format!(
                            "the mailbox of {recipient} holds {bytes} bytes of carried messages, but its size entry says otherwise"
                        ),
                    );
                }
            }
        }
        for (recipient, (j, size)) in &declared_size {
            let queued = Address::from_slice(recipient).and_then(|a| queued_bytes.get(&a));
            if queued.is_none() && *size > 0 {
                return mismatch(
                    *j,
                    format!("a mailbox size of {size} bytes with no carried message"),
                );
            }
        }
        for (i, hash) in actor_codes {
            if !codes.contains(&hash) {
                return invalid(
                    i,
                    "value",
                    format!("the actor's code {hash} is not carried"),
                );
            }
        }
        for (counter, max) in [
            ("timer_seq", max_timer_seq),
            ("mailbox_seq", max_mailbox_seq),
        ] {
            if let Some(max) = max
                && counters
                    .get(counter)
                    .is_none_or(|n| *n <= max || *n > MAX_COUNTER)
            {
                return Err(GenesisError::Invalid {
                    field: "carried.entries".into(),
                    message: format!(
                        "the chain counter {counter:?} must be carried, above {max} (the highest sequence number in use) and at most 2^62"
                    ),
                });
            }
        }
        if self.value().is_none() {
            return Err(GenesisError::Invalid {
                field: "carried.entries".into(),
                message:
                    "balances, mailbox values and escrows add up to more than 2^64 - 1 base units"
                        .into(),
            });
        }
        Ok(())
    }

    /// Writes the carried entries into a genesis state (before the genesis's own fields).
    pub(crate) fn apply(&self, world: &mut World<'_>) -> Result<(), ExecError> {
        for e in &self.entries {
            if e.key.0.first() == Some(&key::TIMER_DUE) {
                let (id, t) = decode_due(&e.value.0)?;
                world.restore_timer(&id, &t)?;
            } else {
                world.overlay.put(e.key.0.clone(), e.value.0.clone());
            }
        }
        Ok(())
    }
}
