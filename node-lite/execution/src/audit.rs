//! Whole-state consistency checks, for tests and operators: every base unit in existence is in
//! exactly one place, and the timer indexes agree with the timers.

use crate::ExecError;
use cowboy_state::StateRead;
use cowboy_types::{
    Account, DeferredOrigin, MailboxMessage, Supply, TimerRecord, Validator, codec::decode_strict,
    state::key,
};

/// Where the supply is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SupplyAudit {
    /// `genesis + minted − burned`, as recorded.
    pub recorded: u128,
    pub balances: u128,
    pub stakes: u128,
    /// Values carried by messages waiting in mailboxes.
    pub in_mailboxes: u128,
    /// Budgets held for deferred messages.
    pub escrowed: u128,
}

impl SupplyAudit {
    /// What the state actually holds.
    pub fn held(&self) -> u128 {
        self.balances + self.stakes + self.in_mailboxes + self.escrowed
    }

    pub fn balanced(&self) -> bool {
        self.held() == self.recorded
    }
}

fn each(
    state: &dyn StateRead,
    prefix: u8,
    mut f: impl FnMut(&[u8], &[u8]) -> Result<(), ExecError>,
) -> Result<(), ExecError> {
    let mut after: Option<Vec<u8>> = None;
    loop {
        let page = state.scan(&[prefix], after.as_deref(), 1024)?;
        for (k, v) in &page {
            f(k, v)?;
        }
        if page.len() < 1024 {
            return Ok(());
        }
        after = page.last().map(|(k, _)| k.clone());
    }
}

fn corrupt(what: &str, e: impl ToString) -> ExecError {
    ExecError::Corrupt {
        what: what.into(),
        reason: e.to_string(),
    }
}

/// Adds up every balance, stake, in-flight value and escrow in `state`.
pub fn supply(state: &dyn StateRead) -> Result<SupplyAudit, ExecError> {
    let mut a = SupplyAudit::default();
    let s: Supply = match state.get(&key::chain("supply"))? {
        Some(b) => decode_strict(&b).map_err(|e| corrupt("supply", e))?,
        None => Supply::default(),
    };
    a.recorded = s.genesis as u128 + s.minted as u128 - s.burned as u128;
    each(state, key::ACCOUNT, |_, v| {
        let acc: Account = decode_strict(v).map_err(|e| corrupt("account", e))?;
        a.balances += acc.balance as u128;
        Ok(())
    })?;
    each(state, key::VALIDATOR, |_, v| {
        let val: Validator = decode_strict(v).map_err(|e| corrupt("validator", e))?;
        a.stakes += val.stake as u128;
        Ok(())
    })?;
    each(state, key::MAILBOX, |_, v| {
        let m: MailboxMessage = decode_strict(v).map_err(|e| corrupt("mailbox", e))?;
        a.in_mailboxes += m.value as u128;
        Ok(())
    })?;
    each(state, key::ORIGIN, |_, v| {
        let o: DeferredOrigin = decode_strict(v).map_err(|e| corrupt("origin", e))?;
        a.escrowed += o.escrow();
        Ok(())
    })?;
    Ok(a)
}

/// Checks that every timer is in the due queue exactly once (and in the expiry queue iff it
/// has a TTL), that every queue entry points at a timer, and that per-creator counts match.
pub fn timers(state: &dyn StateRead) -> Result<usize, ExecError> {
    use std::collections::BTreeMap;
    // Every queue entry is a timer; every timer's place points at its entry.
    let mut timers: BTreeMap<Vec<u8>, TimerRecord> = BTreeMap::new();
    each(state, key::TIMER_DUE, |k, v| {
        let (id, t) = crate::world::decode_due(v)?;
        if key::timer_due(t.next_height, t.seq) != k {
            return Err(corrupt("timer due queue", "entry at the wrong place"));
        }
        if timers.insert(id.0.to_vec(), t).is_some() {
            return Err(corrupt("timer due queue", "a timer is queued twice"));
        }
        Ok(())
    })?;
    let mut placed = 0usize;
    each(state, key::TIMER, |k, v| {
        let t = timers
            .get(&k[1..])
            .ok_or_else(|| corrupt("timer place", "points at no queue entry"))?;
        let mut want = t.next_height.to_be_bytes().to_vec();
        want.extend_from_slice(&t.seq.to_be_bytes());
        if v != want.as_slice() {
            return Err(corrupt("timer place", "points at the wrong entry"));
        }
        placed += 1;
        Ok(())
    })?;
    if placed != timers.len() {
        return Err(corrupt(
            "timer places",
            format!("{placed} places for {} queued timers", timers.len()),
        ));
    }
    let mut expiring = 0usize;
    each(state, key::TIMER_EXPIRY, |k, v| {
        let t = timers
            .get(v)
            .ok_or_else(|| corrupt("timer expiry queue", "entry without a timer"))?;
        match t.expires_at {
            Some(e) if key::timer_expiry(e, t.seq) == k => {
                expiring += 1;
                Ok(())
            }
            _ => Err(corrupt("timer expiry queue", "entry at the wrong place")),
        }
    })?;
    let with_ttl = timers.values().filter(|t| t.expires_at.is_some()).count();
    if expiring != with_ttl {
        return Err(corrupt(
            "timer expiry queue",
            format!("{expiring} entries for {with_ttl} timers with a TTL"),
        ));
    }
    let mut counts: BTreeMap<cowboy_types::Address, u64> = BTreeMap::new();
    for t in timers.values() {
        *counts.entry(t.creator).or_default() += 1;
    }
    let mut counted = 0usize;
    each(state, key::TIMER_COUNT, |k, v| {
        let creator = cowboy_types::Address::from_slice(&k[1..])
            .ok_or_else(|| corrupt("timer count", "bad key"))?;
        let mut buf = commonware_codec::Copying(v);
        let n = cowboy_types::codec::read_varint(&mut buf, "count")
            .map_err(|e| corrupt("timer count", e))?;
        if counts.get(&creator).copied().unwrap_or(0) != n {
            return Err(corrupt("timer count", format!("{creator} counted {n}")));
        }
        counted += 1;
        Ok(())
    })?;
    if counted != counts.len() {
        return Err(corrupt("timer count", "a creator's count is missing"));
    }
    Ok(timers.len())
}
