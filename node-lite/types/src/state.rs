//! The records that make up consensus state, and the keys they live under.
//!
//! Everything here is hashed into the state root, so both the key layout ([`key`]) and the
//! record encodings are consensus-critical (whitepaper "Storage and State Persistence": account,
//! actor and mailbox state use the canonical `commonware-codec` encoding). The layout is a
//! Cowboy decision recorded in `book/src/reference/state.md`; change it only with a new state
//! version.

use crate::{
    codec::{
        bytes_size, read_bytes, read_plain, read_string, read_tag, read_u64_be, read_varint,
        varint_size, write_bytes, write_varint,
    },
    constants::{MAX_ARGS_SIZE, MAX_METHOD_NAME_LEN},
    primitives::{Address, Hash},
};
use bytes::BufMut;
use commonware_codec::{Buf, EncodeSize, Error as CodecError, Read, Write};

/// Largest `metadata` an account may carry (Cowboy decision).
pub const MAX_ACCOUNT_METADATA: usize = 1024;
/// Largest validator public key (an ed25519 key is 32 bytes; BLS keys are 48 or 96).
pub const MAX_VALIDATOR_KEY: usize = 96;

/// State keys: one namespace byte followed by fixed-width fields, so that every family of
/// records is a contiguous, ordered range.
pub mod key {
    use crate::primitives::{Address, Hash};

    /// Chain-level counters (supply, inflation year, sequence numbers).
    pub const CHAIN: u8 = 0x00;
    /// `ACCOUNT ‖ address` → [`super::Account`].
    pub const ACCOUNT: u8 = 0x01;
    /// `CODE ‖ code_hash` → canonical Python source.
    pub const CODE: u8 = 0x02;
    /// `STORAGE ‖ address ‖ key` → value bytes (actor storage, system actors included).
    pub const STORAGE: u8 = 0x03;
    /// `TIMER ‖ timer_id` → where the timer waits: `next_height (8B BE) ‖ seq (8B BE)`.
    pub const TIMER: u8 = 0x04;
    /// `TIMER_DUE ‖ height (8B BE) ‖ seq (8B BE)` → `timer_id ‖` [`super::TimerRecord`]: the
    /// firing queue, FIFO per height. Records live in the queue itself, so firing a block's due
    /// timers is one ordered range read, however many timers are pending.
    pub const TIMER_DUE: u8 = 0x05;
    /// `TIMER_EXPIRY ‖ expires_at (8B BE) ‖ seq (8B BE)` → timer id: the TTL queue.
    pub const TIMER_EXPIRY: u8 = 0x06;
    /// `TIMER_COUNT ‖ creator` → number of pending timers the creator scheduled (varint).
    pub const TIMER_COUNT: u8 = 0x07;
    /// `MAILBOX ‖ seq (8B BE)` → [`super::MailboxMessage`]: deferred messages, FIFO.
    pub const MAILBOX: u8 = 0x08;
    /// `MAILBOX_SIZE ‖ recipient` → bytes pending in the recipient's mailbox (varint).
    pub const MAILBOX_SIZE: u8 = 0x09;
    /// `ORIGIN ‖ origin hash` → [`super::DeferredOrigin`]: the budget of deferred messages.
    pub const ORIGIN: u8 = 0x0a;
    /// `DEDUP ‖ recipient ‖ message id` → height delivered (varint).
    pub const DEDUP: u8 = 0x0b;
    /// `DEDUP_EXPIRY ‖ height (8B BE) ‖ recipient ‖ message id` → empty: pruning order.
    pub const DEDUP_EXPIRY: u8 = 0x0c;
    /// `VALIDATOR ‖ address` → [`super::Validator`].
    pub const VALIDATOR: u8 = 0x0d;
    /// `TIMER_FIRES ‖ actor` → firings of the actor's timers in the §5.1b fairness window
    /// (varint; only while the timer auction is active).
    pub const TIMER_FIRES: u8 = 0x0e;
    /// `TIMER_FIRE_LOG ‖ height (8B BE) ‖ actor` → firings at that height (varint), so the
    /// window's counts can be decreased when the height leaves it.
    pub const TIMER_FIRE_LOG: u8 = 0x0f;

    fn join(parts: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::with_capacity(parts.iter().map(|p| p.len()).sum());
        for p in parts {
            out.extend_from_slice(p);
        }
        out
    }

    /// A chain-level counter.
    pub fn chain(name: &str) -> Vec<u8> {
        join(&[&[CHAIN], name.as_bytes()])
    }
    pub fn account(a: &Address) -> Vec<u8> {
        join(&[&[ACCOUNT], &a.0])
    }
    pub fn code(h: &Hash) -> Vec<u8> {
        join(&[&[CODE], &h.0])
    }
    /// Prefix of every storage key of `actor`.
    pub fn storage_prefix(actor: &Address) -> Vec<u8> {
        join(&[&[STORAGE], &actor.0])
    }
    pub fn storage(actor: &Address, k: &[u8]) -> Vec<u8> {
        join(&[&[STORAGE], &actor.0, k])
    }
    pub fn timer(id: &Hash) -> Vec<u8> {
        join(&[&[TIMER], &id.0])
    }
    pub fn timer_due(height: u64, seq: u64) -> Vec<u8> {
        join(&[&[TIMER_DUE], &height.to_be_bytes(), &seq.to_be_bytes()])
    }
    pub fn timer_expiry(expires_at: u64, seq: u64) -> Vec<u8> {
        join(&[
            &[TIMER_EXPIRY],
            &expires_at.to_be_bytes(),
            &seq.to_be_bytes(),
        ])
    }
    pub fn timer_count(creator: &Address) -> Vec<u8> {
        join(&[&[TIMER_COUNT], &creator.0])
    }
    pub fn mailbox(seq: u64) -> Vec<u8> {
        join(&[&[MAILBOX], &seq.to_be_bytes()])
    }
    pub fn mailbox_size(recipient: &Address) -> Vec<u8> {
        join(&[&[MAILBOX_SIZE], &recipient.0])
    }
    pub fn origin(h: &Hash) -> Vec<u8> {
        join(&[&[ORIGIN], &h.0])
    }
    pub fn dedup(recipient: &Address, id: &Hash) -> Vec<u8> {
        join(&[&[DEDUP], &recipient.0, &id.0])
    }
    pub fn dedup_expiry(height: u64, recipient: &Address, id: &Hash) -> Vec<u8> {
        join(&[&[DEDUP_EXPIRY], &height.to_be_bytes(), &recipient.0, &id.0])
    }
    pub fn validator(a: &Address) -> Vec<u8> {
        join(&[&[VALIDATOR], &a.0])
    }
    pub fn timer_fires(actor: &Address) -> Vec<u8> {
        join(&[&[TIMER_FIRES], &actor.0])
    }
    pub fn timer_fire_log(height: u64, actor: &Address) -> Vec<u8> {
        join(&[&[TIMER_FIRE_LOG], &height.to_be_bytes(), &actor.0])
    }

    /// Reads the big-endian `u64` at `offset` of a key (for the ordered queues).
    pub fn be_u64(key: &[u8], offset: usize) -> Option<u64> {
        key.get(offset..offset + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map(u64::from_be_bytes)
    }
}

/// Storage bookkeeping of an actor (whitepaper §3: quota 1 MiB, extendable by bond to 8 MiB).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StorageUsage {
    /// Bytes of keys and values currently stored.
    pub used: u64,
    /// Bytes the actor may store.
    pub quota: u64,
    /// Base units locked to extend the quota beyond the default.
    pub bond: u64,
}

/// What makes an account an actor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActorRecord {
    pub code_hash: Hash,
    /// The PVM version whose rules validated the code at deploy (`cowboy_pvm::stdlib`).
    pub pvm_version: u16,
    pub storage: StorageUsage,
    /// What the actor declared at deployment (whitepaper §15), fixed for its lifetime.
    pub entitlements: crate::entitlement::ActorEntitlements,
}

/// An account: `{balance, nonce, code_hash?, storage?, metadata}` (whitepaper "Accounts and
/// State"). `actor` holds the code hash and storage bookkeeping together, so an account is
/// either an external account or an actor, never half of one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Account {
    /// Base units (1 CBY = 10^9 base units).
    pub balance: u64,
    /// Transactions sent (external accounts) or ids created (actors).
    pub nonce: u64,
    pub actor: Option<ActorRecord>,
    pub metadata: Vec<u8>,
}

impl Account {
    /// True when nothing distinguishes the account from one that never existed.
    pub fn is_empty(&self) -> bool {
        self.balance == 0 && self.nonce == 0 && self.actor.is_none() && self.metadata.is_empty()
    }
}

/// A validator: its stake and consensus public key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validator {
    /// Self-bonded stake, in base units (counted in the supply, not in the balance).
    pub stake: u64,
    pub public_key: Vec<u8>,
}

/// A pending timer (whitepaper §5.1a).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimerRecord {
    /// Who scheduled it: counts against their `max_timers_per_actor`; only they may cancel.
    pub creator: Address,
    /// Whose balance pays each firing (the creator in v1).
    pub fee_payer: Address,
    /// The actor whose handler fires.
    pub actor: Address,
    pub handler: String,
    /// Canonically encoded positional arguments.
    pub args: Vec<u8>,
    /// Height of the next firing.
    pub next_height: u64,
    /// Repeat every N blocks; 0 for a one-shot timer.
    pub every: u64,
    pub cycles_per_fire: u64,
    pub cells_per_fire: u64,
    /// Last height at which the timer may fire; after it, the timer expires (TTL).
    pub expires_at: Option<u64>,
    /// Insertion order: FIFO within a height.
    pub seq: u64,
    /// §5.1b auction bid (`None`: the default gas-bidding agent bids).
    pub bid: Option<crate::TimerBid>,
}

/// A message waiting in a recipient's mailbox for a later block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailboxMessage {
    /// `keccak256(sender ‖ nonce ‖ msg_hash)`.
    pub id: Hash,
    pub sender: Address,
    pub to: Address,
    pub method: String,
    pub args: Vec<u8>,
    /// Base units carried (already debited from the sender; refunded if delivery fails).
    pub value: u64,
    /// Send depth (the transaction's own message is depth 0).
    pub depth: u64,
    /// The transaction (or timer firing) whose budget pays for the delivery.
    pub origin: Hash,
}

/// The reserved budget of a transaction whose messages were deferred: what remained of its
/// limits, held at its `max_fee_*` rates until the last deferred message is delivered
/// (`origin_remaining_cycles` / `origin_remaining_cells`, whitepaper §2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeferredOrigin {
    pub payer: Address,
    pub remaining_cycles: u64,
    pub remaining_cells: u64,
    pub max_fee_per_cycle: u64,
    pub max_fee_per_cell: u64,
    pub max_priority_fee_per_cycle: u64,
    pub max_priority_fee_per_cell: u64,
    /// Messages of this origin still in mailboxes.
    pub pending: u64,
    /// Messages the origin may still enqueue (the per-transaction fanout cap).
    pub fanout_left: u64,
}

impl DeferredOrigin {
    /// Base units held for the remaining budget.
    pub fn escrow(&self) -> u128 {
        self.remaining_cycles as u128 * self.max_fee_per_cycle as u128
            + self.remaining_cells as u128 * self.max_fee_per_cell as u128
    }
}

/// Supply bookkeeping: `genesis + minted − burned` equals every balance, stake, mailbox value
/// and escrow added up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Supply {
    pub genesis: u64,
    pub minted: u64,
    pub burned: u64,
}

impl Supply {
    /// Base units in existence.
    pub fn total(&self) -> u64 {
        self.genesis
            .saturating_add(self.minted)
            .saturating_sub(self.burned)
    }
}

// ---- codec ----

fn read_u64_option(buf: &mut impl Buf, name: &'static str) -> Result<Option<u64>, CodecError> {
    Ok(if read_tag(buf, name)? {
        Some(read_varint(buf, name)?)
    } else {
        None
    })
}

fn write_u64_option(v: &Option<u64>, buf: &mut impl BufMut) {
    match v {
        Some(v) => {
            buf.put_u8(1);
            write_varint(*v, buf);
        }
        None => buf.put_u8(0),
    }
}

fn u64_option_size(v: &Option<u64>) -> usize {
    1 + v.map_or(0, varint_size)
}

impl Write for StorageUsage {
    fn write(&self, buf: &mut impl BufMut) {
        write_varint(self.used, buf);
        write_varint(self.quota, buf);
        buf.put_u64(self.bond);
    }
}
impl EncodeSize for StorageUsage {
    fn encode_size(&self) -> usize {
        varint_size(self.used) + varint_size(self.quota) + 8
    }
}
impl Read for StorageUsage {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            used: read_varint(buf, "used")?,
            quota: read_varint(buf, "quota")?,
            bond: read_u64_be(buf, "bond")?,
        })
    }
}

impl Write for Account {
    fn write(&self, buf: &mut impl BufMut) {
        buf.put_u64(self.balance);
        write_varint(self.nonce, buf);
        match &self.actor {
            Some(a) => {
                buf.put_u8(1);
                a.code_hash.write(buf);
                write_varint(u64::from(a.pvm_version), buf);
                a.storage.write(buf);
                a.entitlements.write(buf);
            }
            None => buf.put_u8(0),
        }
        write_bytes(&self.metadata, buf);
    }
}
impl EncodeSize for Account {
    fn encode_size(&self) -> usize {
        8 + varint_size(self.nonce)
            + 1
            + self.actor.as_ref().map_or(0, |a| {
                Hash::LEN
                    + varint_size(u64::from(a.pvm_version))
                    + a.storage.encode_size()
                    + a.entitlements.encode_size()
            })
            + bytes_size(&self.metadata)
    }
}
impl Read for Account {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        let balance = read_u64_be(buf, "balance")?;
        let nonce = read_varint(buf, "nonce")?;
        let actor = if read_tag(buf, "actor")? {
            Some(ActorRecord {
                code_hash: read_plain(buf, "code_hash")?,
                pvm_version: u16::try_from(read_varint(buf, "pvm_version")?)
                    .map_err(|_| CodecError::Invalid("Account", "pvm_version above 65535"))?,
                storage: read_plain(buf, "storage")?,
                entitlements: read_plain(buf, "entitlements")?,
            })
        } else {
            None
        };
        Ok(Self {
            balance,
            nonce,
            actor,
            metadata: read_bytes(buf, "metadata", MAX_ACCOUNT_METADATA)?,
        })
    }
}

impl Write for Validator {
    fn write(&self, buf: &mut impl BufMut) {
        buf.put_u64(self.stake);
        write_bytes(&self.public_key, buf);
    }
}
impl EncodeSize for Validator {
    fn encode_size(&self) -> usize {
        8 + bytes_size(&self.public_key)
    }
}
impl Read for Validator {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            stake: read_u64_be(buf, "stake")?,
            public_key: read_bytes(buf, "public_key", MAX_VALIDATOR_KEY)?,
        })
    }
}

impl Write for TimerRecord {
    fn write(&self, buf: &mut impl BufMut) {
        self.creator.write(buf);
        self.fee_payer.write(buf);
        self.actor.write(buf);
        write_bytes(self.handler.as_bytes(), buf);
        write_bytes(&self.args, buf);
        write_varint(self.next_height, buf);
        write_varint(self.every, buf);
        write_varint(self.cycles_per_fire, buf);
        write_varint(self.cells_per_fire, buf);
        write_u64_option(&self.expires_at, buf);
        write_varint(self.seq, buf);
        crate::instruction::write_bid(&self.bid, buf);
    }
}
impl EncodeSize for TimerRecord {
    fn encode_size(&self) -> usize {
        Address::LEN * 3
            + bytes_size(self.handler.as_bytes())
            + bytes_size(&self.args)
            + varint_size(self.next_height)
            + varint_size(self.every)
            + varint_size(self.cycles_per_fire)
            + varint_size(self.cells_per_fire)
            + u64_option_size(&self.expires_at)
            + varint_size(self.seq)
            + crate::instruction::bid_size(&self.bid)
    }
}
impl Read for TimerRecord {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            creator: read_plain(buf, "creator")?,
            fee_payer: read_plain(buf, "fee_payer")?,
            actor: read_plain(buf, "actor")?,
            handler: read_string(buf, "handler", MAX_METHOD_NAME_LEN)?,
            args: read_bytes(buf, "args", MAX_ARGS_SIZE)?,
            next_height: read_varint(buf, "next_height")?,
            every: read_varint(buf, "every")?,
            cycles_per_fire: read_varint(buf, "cycles_per_fire")?,
            cells_per_fire: read_varint(buf, "cells_per_fire")?,
            expires_at: read_u64_option(buf, "expires_at")?,
            seq: read_varint(buf, "seq")?,
            bid: crate::instruction::read_bid(buf)?,
        })
    }
}

/// Largest argument blob of a message sent by an actor (bounded by the 10 MiB call memory; a
/// mailbox holds at most 1,000,000 bytes).
pub const MAX_MESSAGE_ARGS: usize = 1_000_000;

impl Write for MailboxMessage {
    fn write(&self, buf: &mut impl BufMut) {
        self.id.write(buf);
        self.sender.write(buf);
        self.to.write(buf);
        write_bytes(self.method.as_bytes(), buf);
        write_bytes(&self.args, buf);
        buf.put_u64(self.value);
        write_varint(self.depth, buf);
        self.origin.write(buf);
    }
}
impl EncodeSize for MailboxMessage {
    fn encode_size(&self) -> usize {
        Hash::LEN * 2
            + Address::LEN * 2
            + bytes_size(self.method.as_bytes())
            + bytes_size(&self.args)
            + 8
            + varint_size(self.depth)
    }
}
impl Read for MailboxMessage {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            id: read_plain(buf, "id")?,
            sender: read_plain(buf, "sender")?,
            to: read_plain(buf, "to")?,
            method: read_string(buf, "method", MAX_METHOD_NAME_LEN)?,
            args: read_bytes(buf, "args", MAX_MESSAGE_ARGS)?,
            value: read_u64_be(buf, "value")?,
            depth: read_varint(buf, "depth")?,
            origin: read_plain(buf, "origin")?,
        })
    }
}

impl Write for DeferredOrigin {
    fn write(&self, buf: &mut impl BufMut) {
        self.payer.write(buf);
        write_varint(self.remaining_cycles, buf);
        write_varint(self.remaining_cells, buf);
        write_varint(self.max_fee_per_cycle, buf);
        write_varint(self.max_fee_per_cell, buf);
        write_varint(self.max_priority_fee_per_cycle, buf);
        write_varint(self.max_priority_fee_per_cell, buf);
        write_varint(self.pending, buf);
        write_varint(self.fanout_left, buf);
    }
}
impl EncodeSize for DeferredOrigin {
    fn encode_size(&self) -> usize {
        Address::LEN
            + [
                self.remaining_cycles,
                self.remaining_cells,
                self.max_fee_per_cycle,
                self.max_fee_per_cell,
                self.max_priority_fee_per_cycle,
                self.max_priority_fee_per_cell,
                self.pending,
                self.fanout_left,
            ]
            .into_iter()
            .map(varint_size)
            .sum::<usize>()
    }
}
impl Read for DeferredOrigin {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            payer: read_plain(buf, "payer")?,
            remaining_cycles: read_varint(buf, "remaining_cycles")?,
            remaining_cells: read_varint(buf, "remaining_cells")?,
            max_fee_per_cycle: read_varint(buf, "max_fee_per_cycle")?,
            max_fee_per_cell: read_varint(buf, "max_fee_per_cell")?,
            max_priority_fee_per_cycle: read_varint(buf, "max_priority_fee_per_cycle")?,
            max_priority_fee_per_cell: read_varint(buf, "max_priority_fee_per_cell")?,
            pending: read_varint(buf, "pending")?,
            fanout_left: read_varint(buf, "fanout_left")?,
        })
    }
}

impl Write for Supply {
    fn write(&self, buf: &mut impl BufMut) {
        buf.put_u64(self.genesis);
        buf.put_u64(self.minted);
        buf.put_u64(self.burned);
    }
}
impl EncodeSize for Supply {
    fn encode_size(&self) -> usize {
        24
    }
}
impl Read for Supply {
    type Cfg = ();
    fn read_cfg(buf: &mut impl Buf, _: &()) -> Result<Self, CodecError> {
        Ok(Self {
            genesis: read_u64_be(buf, "genesis")?,
            minted: read_u64_be(buf, "minted")?,
            burned: read_u64_be(buf, "burned")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use commonware_codec::Encode as _;

    #[test]
    fn an_actor_account_keeps_its_pvm_version() {
        let account = Account {
            balance: 5,
            nonce: 1,
            actor: Some(ActorRecord {
                code_hash: Hash([9; 32]),
                pvm_version: 300,
                storage: StorageUsage {
                    used: 10,
                    quota: 1 << 20,
                    bond: 0,
                },
                entitlements: Default::default(),
            }),
            metadata: vec![],
        };
        let bytes = account.encode();
        assert_eq!(bytes.len(), account.encode_size());
        let back: Account = crate::codec::decode_strict(&bytes).expect("decodes");
        assert_eq!(back, account);

        // A version that does not fit 16 bits is refused, not truncated.
        let mut wide = Vec::new();
        wide.put_u64(5);
        crate::codec::write_varint(1, &mut wide);
        wide.put_u8(1);
        Hash([9; 32]).write(&mut wide);
        crate::codec::write_varint(70_000, &mut wide);
        StorageUsage::default().write(&mut wide);
        crate::codec::write_bytes(&[], &mut wide);
        assert!(crate::codec::decode_strict::<Account>(&wide).is_err());
    }
}
