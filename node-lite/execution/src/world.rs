//! Typed access to consensus state during execution: accounts, code, actor storage, timers and
//! their queues, mailboxes, message dedup, runners, validators, supply and basefees, all read from and
//! written to the block's [`Overlay`].

use crate::{ExecError, fees::Basefees, params::BASEFEE_ACTOR};
use commonware_codec::{Encode, Read};
use cowboy_state::Overlay;
use cowboy_types::{
    Account, Address, DeferredOrigin, Hash, MailboxMessage, Supply, TimerRecord, Validator,
    codec::{decode_strict, encode_to_vec, read_varint, write_varint},
    runner::{Runner, actors, storage as runner_key},
    state::key,
};

/// Storage key of the basefees in the Dual Basefee actor (0x06).
pub const BASEFEE_KEY: &[u8] = b"system:basefee";
/// Storage key of the §5.1b timer-lane basefee (0x06), while the timer auction is active.
pub const TIMER_BASEFEE_KEY: &[u8] = b"system:timer_basefee";
/// Storage key of the previous block's median timer tip per cycle (0x06): the default bidding
/// agent's priority fee.
pub const TIMER_TIP_KEY: &[u8] = b"system:timer_p50_tip";

/// Inflation bookkeeping: the year in force and the supply when it began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InflationState {
    pub year: u64,
    pub year_start_supply: u64,
}

/// The state as execution sees it.
pub struct World<'a> {
    pub overlay: Overlay<'a>,
}

pub(crate) fn decode<T: Read<Cfg = ()>>(
    what: impl FnOnce() -> String,
    bytes: &[u8],
) -> Result<T, ExecError> {
    decode_strict(bytes).map_err(|e| ExecError::Corrupt {
        what: what(),
        reason: e.to_string(),
    })
}

fn varint_bytes(v: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(10);
    write_varint(v, &mut out);
    out
}

fn read_u64(what: &str, bytes: &[u8]) -> Result<u64, ExecError> {
    let mut buf = commonware_codec::Copying(bytes);
    let v = read_varint(&mut buf, "value").map_err(|e| ExecError::Corrupt {
        what: what.to_owned(),
        reason: e.to_string(),
    })?;
    if bytes::Buf::remaining(&buf) != 0 {
        return Err(ExecError::Corrupt {
            what: what.to_owned(),
            reason: "trailing bytes".into(),
        });
    }
    Ok(v)
}

impl<'a> World<'a> {
    pub fn new(overlay: Overlay<'a>) -> Self {
        Self { overlay }
    }

    fn get(&self, k: &[u8]) -> Result<Option<Vec<u8>>, ExecError> {
        Ok(self.overlay.get(k)?)
    }

    fn put<T: Encode>(&mut self, k: Vec<u8>, v: &T) {
        self.overlay.put(k, v.encode().to_vec());
    }

    // ---- accounts and code ----

    /// The account at `a` (an empty account if none exists).
    pub fn account(&self, a: &Address) -> Result<Account, ExecError> {
        match self.get(&key::account(a))? {
            Some(b) => decode(|| format!("account {a}"), &b),
            None => Ok(Account::default()),
        }
    }

    /// Stores `acc` (an empty account is removed, so it costs no state).
    pub fn set_account(&mut self, a: &Address, acc: &Account) {
        if acc.is_empty() {
            self.overlay.delete(key::account(a));
        } else {
            self.put(key::account(a), acc);
        }
    }

    /// Adds `amount` to `a`'s balance.
    pub fn credit(&mut self, a: &Address, amount: u64) -> Result<(), ExecError> {
        if amount == 0 {
            return Ok(());
        }
        let mut acc = self.account(a)?;
        acc.balance = acc
            .balance
            .checked_add(amount)
            .ok_or_else(|| ExecError::Supply(format!("balance of {a} overflows")))?;
        self.set_account(a, &acc);
        Ok(())
    }

    /// Takes `amount` from `a`'s balance; `false` (and no change) if the balance is short.
    pub fn debit(&mut self, a: &Address, amount: u64) -> Result<bool, ExecError> {
        if amount == 0 {
            return Ok(true);
        }
        let mut acc = self.account(a)?;
        match acc.balance.checked_sub(amount) {
            Some(b) => {
                acc.balance = b;
                self.set_account(a, &acc);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Takes `amount` from `a`, which must hold it: a shortfall is a broken supply invariant
    /// (escrow, stake or a bond the chain itself holds), not a user error.
    pub fn withdraw_held(&mut self, a: &Address, amount: u64) -> Result<(), ExecError> {
        if self.debit(a, amount)? {
            Ok(())
        } else {
            Err(ExecError::Supply(format!(
                "{a} cannot pay {amount} base units it should hold"
            )))
        }
    }

    /// Moves `amount` from `from`, which must hold it (see [`Self::withdraw_held`]), to `to`.
    pub fn transfer_held(
        &mut self,
        from: &Address,
        to: &Address,
        amount: u64,
    ) -> Result<(), ExecError> {
        self.withdraw_held(from, amount)?;
        self.credit(to, amount)
    }

    pub fn code(&self, h: &Hash) -> Result<Option<String>, ExecError> {
        match self.get(&key::code(h))? {
            Some(b) => String::from_utf8(b)
                .map(Some)
                .map_err(|_| ExecError::Corrupt {
                    what: format!("code {h}"),
                    reason: "not UTF-8".into(),
                }),
            None => Ok(None),
        }
    }

    pub fn set_code(&mut self, h: &Hash, source: &str) {
        self.overlay.put(key::code(h), source.as_bytes().to_vec());
    }

    // ---- actor storage ----

    pub fn storage(&self, actor: &Address, k: &[u8]) -> Result<Option<Vec<u8>>, ExecError> {
        self.get(&key::storage(actor, k))
    }

    pub fn set_storage(&mut self, actor: &Address, k: &[u8], v: Option<&[u8]>) {
        match v {
            Some(v) => self.overlay.put(key::storage(actor, k), v.to_vec()),
            None => self.overlay.delete(key::storage(actor, k)),
        }
    }

    // ---- timers ----

    /// The pending timer `id`.
    pub fn timer(&self, id: &Hash) -> Result<Option<TimerRecord>, ExecError> {
        let Some(place) = self.get(&key::timer(id))? else {
            return Ok(None);
        };
        let (height, seq) = match (key::be_u64(&place, 0), key::be_u64(&place, 8)) {
            (Some(h), Some(s)) if place.len() == 16 => (h, s),
            _ => {
                return Err(ExecError::Corrupt {
                    what: format!("timer {id}"),
                    reason: "place is not 16 bytes".into(),
                });
            }
        };
        let entry = self
            .get(&key::timer_due(height, seq))?
            .ok_or_else(|| ExecError::Corrupt {
                what: format!("timer {id}"),
                reason: "not in the due queue".into(),
            })?;
        let (queued, t) = decode_due(&entry)?;
        if queued != *id {
            return Err(ExecError::Corrupt {
                what: format!("timer {id}"),
                reason: "its queue entry belongs to another timer".into(),
            });
        }
        Ok(Some(t))
    }

    /// Pending timers `creator` scheduled.
    pub fn timer_count(&self, creator: &Address) -> Result<u64, ExecError> {
        match self.get(&key::timer_count(creator))? {
            Some(b) => read_u64("timer count", &b),
            None => Ok(0),
        }
    }

    fn set_timer_count(&mut self, creator: &Address, n: u64) {
        if n == 0 {
            self.overlay.delete(key::timer_count(creator));
        } else {
            self.overlay.put(key::timer_count(creator), varint_bytes(n));
        }
    }

    /// Takes the next value of a chain counter.
    pub fn next_seq(&mut self, name: &str) -> Result<u64, ExecError> {
        let k = key::chain(name);
        let v = match self.get(&k)? {
            Some(b) => read_u64(name, &b)?,
            None => 0,
        };
        self.overlay.put(k, varint_bytes(v + 1));
        Ok(v)
    }

    fn place_timer(&mut self, id: &Hash, t: &TimerRecord) {
        let mut place = Vec::with_capacity(16);
        place.extend_from_slice(&t.next_height.to_be_bytes());
        place.extend_from_slice(&t.seq.to_be_bytes());
        self.overlay.put(key::timer(id), place);
        self.overlay
            .put(key::timer_due(t.next_height, t.seq), encode_due(id, t));
        if let Some(e) = t.expires_at {
            self.overlay.put(key::timer_expiry(e, t.seq), id.0.to_vec());
        }
    }

    fn unplace_timer(&mut self, t: &TimerRecord) {
        self.overlay.delete(key::timer_due(t.next_height, t.seq));
        if let Some(e) = t.expires_at {
            self.overlay.delete(key::timer_expiry(e, t.seq));
        }
    }

    /// Adds a new timer and indexes it (due queue, expiry queue, creator count).
    pub fn insert_timer(&mut self, id: &Hash, mut t: TimerRecord) -> Result<(), ExecError> {
        t.seq = self.next_seq("timer_seq")?;
        self.place_timer(id, &t);
        let n = self.timer_count(&t.creator)?;
        self.set_timer_count(&t.creator, n + 1);
        Ok(())
    }

    /// Puts back a timer carried from another chain's state ([`crate::snapshot`]): its place,
    /// queue entries and creator count, keeping its sequence number.
    pub fn restore_timer(&mut self, id: &Hash, t: &TimerRecord) -> Result<(), ExecError> {
        self.place_timer(id, t);
        let n = self.timer_count(&t.creator)?;
        self.set_timer_count(&t.creator, n + 1);
        Ok(())
    }

    /// Removes a timer and its index entries.
    pub fn remove_timer(&mut self, id: &Hash, t: &TimerRecord) -> Result<(), ExecError> {
        self.overlay.delete(key::timer(id));
        self.unplace_timer(t);
        let n = self.timer_count(&t.creator)?;
        self.set_timer_count(&t.creator, n.saturating_sub(1));
        Ok(())
    }

    /// Moves an interval timer to its next firing (a fresh place at the end of that height's
    /// FIFO).
    pub fn reschedule_timer(
        &mut self,
        id: &Hash,
        t: &TimerRecord,
        next_height: u64,
    ) -> Result<(), ExecError> {
        self.unplace_timer(t);
        let mut next = t.clone();
        next.next_height = next_height;
        next.seq = self.next_seq("timer_seq")?;
        self.place_timer(id, &next);
        Ok(())
    }

    // ---- mailboxes and deferred budgets ----

    /// Bytes waiting in `a`'s mailbox.
    pub fn mailbox_size(&self, a: &Address) -> Result<u64, ExecError> {
        match self.get(&key::mailbox_size(a))? {
            Some(b) => read_u64("mailbox size", &b),
            None => Ok(0),
        }
    }

    fn set_mailbox_size(&mut self, a: &Address, n: u64) {
        if n == 0 {
            self.overlay.delete(key::mailbox_size(a));
        } else {
            self.overlay.put(key::mailbox_size(a), varint_bytes(n));
        }
    }

    /// Appends a message to its recipient's mailbox.
    pub fn push_mailbox(&mut self, m: &MailboxMessage) -> Result<(), ExecError> {
        let seq = self.next_seq("mailbox_seq")?;
        self.put(key::mailbox(seq), m);
        let size = cowboy_pvm::host::mailbox_bytes(&m.method, &m.args);
        let n = self.mailbox_size(&m.to)?;
        self.set_mailbox_size(&m.to, n + size);
        Ok(())
    }

    /// Removes the message at mailbox position `seq`.
    pub fn pop_mailbox(&mut self, seq_key: &[u8], m: &MailboxMessage) -> Result<(), ExecError> {
        self.overlay.delete(seq_key.to_vec());
        let size = cowboy_pvm::host::mailbox_bytes(&m.method, &m.args);
        let n = self.mailbox_size(&m.to)?;
        self.set_mailbox_size(&m.to, n.saturating_sub(size));
        Ok(())
    }

    pub fn origin(&self, h: &Hash) -> Result<Option<DeferredOrigin>, ExecError> {
        match self.get(&key::origin(h))? {
            Some(b) => decode(|| format!("deferred origin {h}"), &b).map(Some),
            None => Ok(None),
        }
    }

    pub fn set_origin(&mut self, h: &Hash, o: Option<&DeferredOrigin>) {
        match o {
            Some(o) => self.put(key::origin(h), o),
            None => self.overlay.delete(key::origin(h)),
        }
    }

    // ---- dedup ----

    pub fn seen(&self, to: &Address, id: &Hash) -> Result<bool, ExecError> {
        Ok(self.get(&key::dedup(to, id))?.is_some())
    }

    pub fn record_delivery(&mut self, to: &Address, id: &Hash, height: u64) {
        self.overlay.put(key::dedup(to, id), varint_bytes(height));
        self.overlay
            .put(key::dedup_expiry(height, to, id), Vec::new());
    }

    // ---- the Runner Registry (0x…01) ----

    /// The registered runner at `a`.
    pub fn runner(&self, a: &Address) -> Result<Option<Runner>, ExecError> {
        match self.storage(&actors::RUNNER_REGISTRY, &runner_key::runner(a))? {
            Some(b) => decode(|| format!("runner {a}"), &b).map(Some),
            None => Ok(None),
        }
    }

    /// Stores (or, with `None`, removes) the runner at `a`; the encoded size written.
    pub fn set_runner(&mut self, a: &Address, r: Option<&Runner>) -> usize {
        let bytes = r.map(encode_record);
        self.set_storage(
            &actors::RUNNER_REGISTRY,
            &runner_key::runner(a),
            bytes.as_deref(),
        );
        bytes.map_or(0, |b| b.len())
    }

    /// Every registered runner, in address order (one ordered range of the registry's
    /// storage).
    pub fn runners(&self) -> Result<Vec<(Address, Runner)>, ExecError> {
        self.runners_after(None, usize::MAX)
    }

    /// Up to `limit` registered runners with addresses above `after`, in address order.
    pub fn runners_after(
        &self,
        after: Option<&Address>,
        limit: usize,
    ) -> Result<Vec<(Address, Runner)>, ExecError> {
        let prefix = key::storage(&actors::RUNNER_REGISTRY, runner_key::RUNNER_PREFIX);
        let mut out = Vec::new();
        let mut after: Option<Vec<u8>> =
            after.map(|a| key::storage(&actors::RUNNER_REGISTRY, &runner_key::runner(a)));
        while out.len() < limit {
            let want = 256.min(limit - out.len());
            let page = self.overlay.scan(&prefix, after.as_deref(), want)?;
            let done = page.len() < want;
            for (k, v) in &page {
                let a =
                    Address::from_slice(&k[prefix.len()..]).ok_or_else(|| ExecError::Corrupt {
                        what: "runner key".into(),
                        reason: "not 20 bytes".into(),
                    })?;
                out.push((a, decode(|| format!("runner {a}"), v)?));
            }
            after = page.last().map(|(k, _)| k.clone());
            if done {
                break;
            }
        }
        Ok(out)
    }

    // ---- validators, supply, inflation, basefees ----

    pub fn validators(&self) -> Result<Vec<(Address, Validator)>, ExecError> {
        let mut out = Vec::new();
        let mut after: Option<Vec<u8>> = None;
        loop {
            let page = self
                .overlay
                .scan(&[key::VALIDATOR], after.as_deref(), 256)?;
            let done = page.len() < 256;
            for (k, v) in &page {
                let a = Address::from_slice(&k[1..]).ok_or_else(|| ExecError::Corrupt {
                    what: "validator key".into(),
                    reason: "not 20 bytes".into(),
                })?;
                out.push((a, decode(|| format!("validator {a}"), v)?));
            }
            after = page.last().map(|(k, _)| k.clone());
            if done {
                return Ok(out);
            }
        }
    }

    pub fn validator(&self, a: &Address) -> Result<Option<Validator>, ExecError> {
        match self.get(&key::validator(a))? {
            Some(b) => decode(|| format!("validator {a}"), &b).map(Some),
            None => Ok(None),
        }
    }

    pub fn set_validator(&mut self, a: &Address, v: &Validator) {
        self.put(key::validator(a), v);
    }

    pub fn supply(&self) -> Result<Supply, ExecError> {
        match self.get(&key::chain("supply"))? {
            Some(b) => decode(|| "supply".into(), &b),
            None => Ok(Supply::default()),
        }
    }

    pub fn set_supply(&mut self, s: &Supply) {
        self.put(key::chain("supply"), s);
    }

    pub fn inflation(&self) -> Result<InflationState, ExecError> {
        match self.get(&key::chain("inflation"))? {
            Some(b) if b.len() == 16 => Ok(InflationState {
                year: u64::from_be_bytes(b[..8].try_into().unwrap_or_default()),
                year_start_supply: u64::from_be_bytes(b[8..].try_into().unwrap_or_default()),
            }),
            Some(_) => Err(ExecError::Corrupt {
                what: "inflation".into(),
                reason: "not 16 bytes".into(),
            }),
            None => Ok(InflationState {
                year: 0,
                year_start_supply: 0,
            }),
        }
    }

    pub fn set_inflation(&mut self, s: InflationState) {
        let mut b = Vec::with_capacity(16);
        b.extend_from_slice(&s.year.to_be_bytes());
        b.extend_from_slice(&s.year_start_supply.to_be_bytes());
        self.overlay.put(key::chain("inflation"), b);
    }

    /// The user lane's basefees for the next block: the global basefees scaled by the user
    /// lane's multiplier (§6.3).
    pub fn user_prices(&self) -> Result<Basefees, ExecError> {
        Ok(self.lane_prices()?.user)
    }

    /// Every lane's basefees for the next block.
    pub fn lane_prices(&self) -> Result<crate::lanes::LanePrices, ExecError> {
        Ok(crate::lanes::LanePrices::of(
            self.basefees()?,
            &self.params()?.lane_fee_multipliers,
        ))
    }

    /// The basefees the next block executes at (kept by the Dual Basefee actor, 0x06).
    pub fn basefees(&self) -> Result<Basefees, ExecError> {
        let b = self
            .storage(&BASEFEE_ACTOR, BASEFEE_KEY)?
            .ok_or_else(|| ExecError::Corrupt {
                what: "basefees".into(),
                reason: "missing".into(),
            })?;
        let mut buf = commonware_codec::Copying(b.as_slice());
        let bad = |e: commonware_codec::Error| ExecError::Corrupt {
            what: "basefees".into(),
            reason: e.to_string(),
        };
        let cycle = read_varint(&mut buf, "cycle").map_err(bad)?;
        let cell = read_varint(&mut buf, "cell").map_err(bad)?;
        Ok(Basefees { cycle, cell })
    }

    pub fn set_basefees(&mut self, b: Basefees) {
        let mut out = Vec::new();
        write_varint(b.cycle, &mut out);
        write_varint(b.cell, &mut out);
        self.set_storage(&BASEFEE_ACTOR, BASEFEE_KEY, Some(&out));
    }

    fn system_u64(&self, k: &[u8]) -> Result<Option<u64>, ExecError> {
        match self.storage(&BASEFEE_ACTOR, k)? {
            Some(b) => read_u64("basefee actor value", &b).map(Some),
            None => Ok(None),
        }
    }

    fn set_system_u64(&mut self, k: &[u8], v: u64) {
        self.set_storage(&BASEFEE_ACTOR, k, Some(&varint_bytes(v)));
    }

    /// The timer lane's own basefee (§5.1b), starting from the cycle basefee when the auction
    /// first runs.
    pub fn timer_basefee(&self, start: u64) -> Result<u64, ExecError> {
        Ok(self.system_u64(TIMER_BASEFEE_KEY)?.unwrap_or(start))
    }

    pub fn set_timer_basefee(&mut self, v: u64) {
        self.set_system_u64(TIMER_BASEFEE_KEY, v);
    }

    /// The previous block's median timer tip per cycle (0 before any auction firing).
    pub fn timer_tip(&self) -> Result<u64, ExecError> {
        Ok(self.system_u64(TIMER_TIP_KEY)?.unwrap_or(0))
    }

    pub fn set_timer_tip(&mut self, v: u64) {
        self.set_system_u64(TIMER_TIP_KEY, v);
    }

    /// Firings of `actor`'s timers in the fairness window.
    pub fn fires(&self, actor: &Address) -> Result<u64, ExecError> {
        match self.get(&key::timer_fires(actor))? {
            Some(b) => read_u64("timer fires", &b),
            None => Ok(0),
        }
    }

    fn set_fires(&mut self, actor: &Address, n: u64) {
        if n == 0 {
            self.overlay.delete(key::timer_fires(actor));
        } else {
            self.overlay.put(key::timer_fires(actor), varint_bytes(n));
        }
    }

    /// Counts one firing of `actor` at `height` in the fairness window.
    pub fn record_fire(&mut self, actor: &Address, height: u64) -> Result<(), ExecError> {
        let n = self.fires(actor)?;
        self.set_fires(actor, n + 1);
        let log = key::timer_fire_log(height, actor);
        let at = match self.get(&log)? {
            Some(b) => read_u64("timer fire log", &b)?,
            None => 0,
        };
        self.overlay.put(log, varint_bytes(at + 1));
        Ok(())
    }

    /// Takes the firings at `height` out of the window.
    pub fn expire_fires(&mut self, height: u64) -> Result<(), ExecError> {
        let prefix = {
            let mut p = vec![key::TIMER_FIRE_LOG];
            p.extend_from_slice(&height.to_be_bytes());
            p
        };
        loop {
            let page = self.overlay.scan(&prefix, None, 256)?;
            if page.is_empty() {
                return Ok(());
            }
            for (k, v) in page {
                let actor = Address::from_slice(&k[9..]).ok_or_else(|| ExecError::Corrupt {
                    what: "timer fire log".into(),
                    reason: "bad key".into(),
                })?;
                let n = read_u64("timer fire log", &v)?;
                let total = self.fires(&actor)?;
                self.set_fires(&actor, total.saturating_sub(n));
                self.overlay.delete(k);
            }
        }
    }

    /// The median firing count over the actors in the window (at most `limit` actors, in
    /// address order), 0 when none fired.
    pub fn median_fires(&self, limit: usize) -> Result<u64, ExecError> {
        let page = self.overlay.scan(&[key::TIMER_FIRES], None, limit)?;
        let mut counts = page
            .iter()
            .map(|(_, v)| read_u64("timer fires", v))
            .collect::<Result<Vec<u64>, _>>()?;
        if counts.is_empty() {
            return Ok(0);
        }
        counts.sort_unstable();
        Ok(counts[(counts.len() - 1) / 2])
    }

    /// The governance parameters in force.
    pub fn params(&self) -> Result<crate::Parameters, ExecError> {
        crate::Parameters::load(|k| self.storage(&crate::params::GOVERNANCE, k.as_bytes()))
    }
}

/// A due-queue entry: the timer id followed by its record.
pub fn encode_due(id: &Hash, t: &TimerRecord) -> Vec<u8> {
    let mut out = id.0.to_vec();
    out.extend_from_slice(&encode_to_vec(t));
    out
}

/// Reads a due-queue entry.
pub fn decode_due(entry: &[u8]) -> Result<(Hash, TimerRecord), ExecError> {
    let id = entry
        .get(..32)
        .and_then(Hash::from_slice)
        .ok_or_else(|| ExecError::Corrupt {
            what: "timer queue entry".into(),
            reason: "shorter than a timer id".into(),
        })?;
    Ok((id, decode(|| format!("timer {id}"), &entry[32..])?))
}

/// Encodes a record the same way [`World`] stores it (for tests and tools).
pub fn encode_record<T: Encode>(v: &T) -> Vec<u8> {
    encode_to_vec(v)
}
