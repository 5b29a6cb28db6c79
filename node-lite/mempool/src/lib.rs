//! Cowboy's transaction pool.
//!
//! Transactions arrive already verified (signature, chain id, size, limits: their sender was
//! recovered once, in parallel, by the caller). Admission then checks them against the latest
//! executed state — nonce not already used, fees at or above the lane basefee, the balance
//! covering the worst case of everything the sender has pending — and keeps them per sender in
//! nonce order. A transaction with a sender and nonce already pending replaces it only if it
//! raises both fee caps and the tip by at least [`PoolConfig::replace_bump_percent`]. When the
//! pool is full, a better-paying transaction evicts the worst-paying sender's newest one.
//!
//! The pool is a plain data structure; the node wraps it in a lock and gossips what it admits.

use cowboy_execution::{VerifiedTx, fees::Basefees};
use cowboy_types::{Address, Hash, state::Account};
use std::{
    collections::{BTreeMap, HashMap},
    time::Instant,
};

/// Size limits of a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolConfig {
    /// Most transactions held in total.
    pub max_txs: usize,
    /// Most encoded bytes held in total.
    pub max_bytes: usize,
    /// Most transactions one sender may have pending.
    pub max_per_sender: usize,
    /// How far ahead of the account nonce a transaction may be queued.
    pub max_nonce_gap: u64,
    /// Percentage by which a replacement must raise both fee caps and the tip.
    pub replace_bump_percent: u64,
    /// How long a transaction that cannot run yet (a nonce gap before it) may wait.
    pub queued_lifetime: std::time::Duration,
}

impl Default for PoolConfig {
    fn default() -> Self {
        Self {
            max_txs: 50_000,
            max_bytes: 128 * 1024 * 1024,
            max_per_sender: 256,
            max_nonce_gap: 256,
            replace_bump_percent: 10,
            queued_lifetime: std::time::Duration::from_secs(600),
        }
    }
}

/// Why a transaction was not admitted. The messages name the rule and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    #[error("transaction {0} is already pending")]
    AlreadyKnown(Hash),
    #[error("nonce {got} was already used (the sender's next nonce is {expected})")]
    NonceTooLow { expected: u64, got: u64 },
    #[error(
        "nonce {got} is more than {gap} ahead of the sender's next nonce {expected}; send the missing nonces first"
    )]
    NonceTooHigh { expected: u64, got: u64, gap: u64 },
    #[error("max_fee_per_{what} {offered} is below the current lane basefee {basefee}")]
    FeeBelowBasefee {
        what: &'static str,
        offered: u64,
        basefee: u64,
    },
    #[error(
        "balance {balance} cannot cover the worst case of this and the sender's {pending} earlier pending transactions ({needed} base units)"
    )]
    InsufficientBalance {
        balance: u64,
        needed: u128,
        pending: usize,
    },
    #[error(
        "a transaction with nonce {nonce} is already pending ({existing}); a replacement must raise max_fee_per_cycle, max_fee_per_cell and the tip by at least {bump}%"
    )]
    Underpriced {
        nonce: u64,
        existing: Hash,
        bump: u64,
    },
    #[error("the sender already has {max} pending transactions; wait for some to be included")]
    SenderFull { max: usize },
    #[error("the pool is full and this transaction pays less than everything in it")]
    PoolFull,
}

/// What admission did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admitted {
    /// A new transaction.
    Added,
    /// It replaced the pending transaction with this hash.
    Replaced(Hash),
}

/// The pool.
#[derive(Debug, Default)]
pub struct Pool {
    config: PoolConfig,
    /// Sender → nonce → transaction.
    by_sender: BTreeMap<Address, BTreeMap<u64, VerifiedTx>>,
    /// Hash → (sender, nonce, when it was admitted).
    by_hash: HashMap<Hash, (Address, u64, Instant)>,
    bytes: usize,
}

/// How much a transaction offers per unit of work (tip caps, then fee caps), used to rank
/// for eviction.
fn rank(t: &VerifiedTx) -> (u64, u64, u64, u64) {
    (
        t.tx.max_priority_fee_per_cycle,
        t.tx.max_priority_fee_per_cell,
        t.tx.max_fee_per_cycle,
        t.tx.max_fee_per_cell,
    )
}

fn bumped(old: u64, percent: u64) -> u128 {
    (old as u128 * (100 + percent as u128)).div_ceil(100)
}

impl Pool {
    pub fn new(config: PoolConfig) -> Self {
        Self {
            config,
            ..Self::default()
        }
    }

    pub fn len(&self) -> usize {
        self.by_hash.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_hash.is_empty()
    }

    /// Encoded bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn contains(&self, hash: &Hash) -> bool {
        self.by_hash.contains_key(hash)
    }

    pub fn get(&self, hash: &Hash) -> Option<&VerifiedTx> {
        let (sender, nonce, _) = self.by_hash.get(hash)?;
        self.by_sender.get(sender)?.get(nonce)
    }

    /// Every pending transaction, each sender's in nonce order.
    pub fn all(&self) -> impl Iterator<Item = &VerifiedTx> {
        self.by_sender.values().flat_map(|q| q.values())
    }

    /// The sender's pending transactions, by nonce.
    pub fn pending_of(&self, sender: &Address) -> impl Iterator<Item = &VerifiedTx> {
        self.by_sender
            .get(sender)
            .into_iter()
            .flat_map(|m| m.values())
    }

    /// The next nonce a sender should use, given its account nonce: one past its contiguous
    /// pending run.
    pub fn next_nonce(&self, sender: &Address, account_nonce: u64) -> u64 {
        let mut next = account_nonce;
        if let Some(m) = self.by_sender.get(sender) {
            while m.contains_key(&next) {
                next += 1;
            }
        }
        next
    }

    /// Admits `tx` now (see [`Pool::insert_at`]).
    pub fn insert(
        &mut self,
        tx: VerifiedTx,
        account: &Account,
        prices: &Basefees,
    ) -> Result<Admitted, PoolError> {
        self.insert_at(tx, account, prices, Instant::now())
    }

    /// Admits `tx` at `now`, checked against the sender's `account` in the latest executed
    /// state and the user lane's current `prices`.
    pub fn insert_at(
        &mut self,
        tx: VerifiedTx,
        account: &Account,
        prices: &Basefees,
        now: Instant,
    ) -> Result<Admitted, PoolError> {
        if self.by_hash.contains_key(&tx.hash) {
            return Err(PoolError::AlreadyKnown(tx.hash));
        }
        let nonce = tx.tx.nonce;
        if nonce < account.nonce {
            return Err(PoolError::NonceTooLow {
                expected: account.nonce,
                got: nonce,
            });
        }
        if nonce - account.nonce >= self.config.max_nonce_gap {
            return Err(PoolError::NonceTooHigh {
                expected: account.nonce,
                got: nonce,
                gap: self.config.max_nonce_gap,
            });
        }
        for (what, offered, basefee) in [
            ("cycle", tx.tx.max_fee_per_cycle, prices.cycle),
            ("cell", tx.tx.max_fee_per_cell, prices.cell),
        ] {
            if offered < basefee {
                return Err(PoolError::FeeBelowBasefee {
                    what,
                    offered,
                    basefee,
                });
            }
        }
        let queue = self.by_sender.get(&tx.sender);
        let existing = queue.and_then(|q| q.get(&nonce));
        if let Some(old) = existing {
            let bump = self.config.replace_bump_percent;
            let raises = (tx.tx.max_fee_per_cycle as u128)
                >= bumped(old.tx.max_fee_per_cycle, bump)
                && (tx.tx.max_fee_per_cell as u128) >= bumped(old.tx.max_fee_per_cell, bump)
                && (tx.tx.max_priority_fee_per_cycle as u128)
                    >= bumped(old.tx.max_priority_fee_per_cycle, bump)
                && (tx.tx.max_priority_fee_per_cell as u128)
                    >= bumped(old.tx.max_priority_fee_per_cell, bump);
            if !raises {
                return Err(PoolError::Underpriced {
                    nonce,
                    existing: old.hash,
                    bump,
                });
            }
        } else if queue.map_or(0, |q| q.len()) >= self.config.max_per_sender {
            return Err(PoolError::SenderFull {
                max: self.config.max_per_sender,
            });
        }
        // The sender must afford the worst case of everything up to and including this nonce.
        let earlier: Vec<&VerifiedTx> = queue
            .map(|q| q.range(..nonce).map(|(_, t)| t).collect())
            .unwrap_or_default();
        let needed: u128 =
            earlier.iter().map(|t| t.required_balance()).sum::<u128>() + tx.required_balance();
        if needed > account.balance as u128 {
            return Err(PoolError::InsufficientBalance {
                balance: account.balance,
                needed,
                pending: earlier.len(),
            });
        }
        let replaced = existing.map(|old| old.hash);
        if replaced.is_none() {
            self.make_room(&tx)?;
        }
        if let Some(old) = replaced {
            self.remove(&old);
        }
        self.bytes += tx.size;
        self.by_hash.insert(tx.hash, (tx.sender, nonce, now));
        self.by_sender
            .entry(tx.sender)
            .or_default()
            .insert(nonce, tx);
        Ok(match replaced {
            Some(h) => Admitted::Replaced(h),
            None => Admitted::Added,
        })
    }

    /// Evicts worse-paying transactions (each the newest of its sender, so no sender is left
    /// with a gap) until `tx` fits, or refuses it.
    fn make_room(&mut self, tx: &VerifiedTx) -> Result<(), PoolError> {
        while self.by_hash.len() + 1 > self.config.max_txs
            || self.bytes + tx.size > self.config.max_bytes
        {
            let victim = self
                .by_sender
                .iter()
                .filter(|(s, _)| **s != tx.sender)
                .filter_map(|(_, q)| q.values().next_back())
                .min_by_key(|t| (rank(t), std::cmp::Reverse(t.hash)))
                .map(|t| (rank(t), t.hash));
            match victim {
                Some((r, hash)) if r < rank(tx) => {
                    self.remove(&hash);
                }
                _ => return Err(PoolError::PoolFull),
            }
        }
        Ok(())
    }

    /// Removes one transaction.
    pub fn remove(&mut self, hash: &Hash) -> Option<VerifiedTx> {
        let (sender, nonce, _) = self.by_hash.remove(hash)?;
        let queue = self.by_sender.get_mut(&sender)?;
        let tx = queue.remove(&nonce);
        if queue.is_empty() {
            self.by_sender.remove(&sender);
        }
        if let Some(t) = &tx {
            self.bytes -= t.size;
        }
        tx
    }

    /// Drops every transaction whose nonce the chain has used: `nonce_of` gives each sender's
    /// account nonce after the newest executed block. Returns how many were dropped.
    pub fn prune(&mut self, mut nonce_of: impl FnMut(&Address) -> u64) -> usize {
        let mut stale = Vec::new();
        for (sender, queue) in &self.by_sender {
            let next = nonce_of(sender);
            stale.extend(queue.range(..next).map(|(_, t)| t.hash));
        }
        for h in &stale {
            self.remove(h);
        }
        stale.len()
    }

    /// Drops the transactions that cannot run yet — a nonce gap separates them from the
    /// sender's account nonce (`nonce_of`) — and have waited longer than
    /// [`PoolConfig::queued_lifetime`] by `now`. Returns how many were dropped.
    pub fn expire(&mut self, now: Instant, mut nonce_of: impl FnMut(&Address) -> u64) -> usize {
        let lifetime = self.config.queued_lifetime;
        let mut expired = Vec::new();
        for (sender, queue) in &self.by_sender {
            let mut next = nonce_of(sender);
            while queue.contains_key(&next) {
                next += 1;
            }
            for (_, t) in queue.range(next..) {
                let admitted = self.by_hash.get(&t.hash).map(|(_, _, at)| *at);
                if admitted.is_some_and(|at| now.saturating_duration_since(at) > lifetime) {
                    expired.push(t.hash);
                }
            }
        }
        for h in &expired {
            self.remove(h);
        }
        expired.len()
    }

    /// Candidates for a block: every sender's pending transactions from `from_nonce(sender)`
    /// on (the nonce after what the chain and the blocks not yet executed already use), at
    /// most `limit` in total, each sender's in nonce order.
    pub fn candidates(
        &self,
        limit: usize,
        mut from_nonce: impl FnMut(&Address) -> u64,
    ) -> Vec<VerifiedTx> {
        let mut out = Vec::new();
        for (sender, queue) in &self.by_sender {
            let mut next = from_nonce(sender);
            while let Some(t) = queue.get(&next) {
                if out.len() >= limit {
                    return out;
                }
                out.push(t.clone());
                next += 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowboy_crypto::PrivateKey;
    use cowboy_types::{Instruction, SystemInstruction, Transaction};

    const PRICES: Basefees = Basefees {
        cycle: 10_000,
        cell: 10_000,
    };

    fn key(seed: u8) -> PrivateKey {
        PrivateKey::from_bytes(&[seed; 32]).expect("key")
    }

    fn tx(k: &PrivateKey, nonce: u64, fee: u64, tip: u64) -> VerifiedTx {
        let mut t = Transaction {
            chain_id: 7,
            nonce,
            instruction: Instruction::System(SystemInstruction::Transfer {
                to: Address([9; 20]),
                amount: 1,
            }),
            cycles_limit: 30_000,
            cells_limit: 1_000,
            max_fee_per_cycle: fee,
            max_fee_per_cell: fee,
            max_priority_fee_per_cycle: tip,
            max_priority_fee_per_cell: 0,
            from: k.address(),
            access_list: None,
            metadata: vec![],
            origin: None,
            signature: Default::default(),
            additional_signers: vec![],
        };
        cowboy_crypto::sign_transaction(&mut t, k).expect("sign");
        cowboy_execution::verify(t, 7, &cowboy_execution::Parameters::default()).expect("valid")
    }

    fn rich(nonce: u64) -> Account {
        Account {
            balance: u64::MAX / 2,
            nonce,
            ..Account::default()
        }
    }

    #[test]
    fn orders_by_nonce_and_hands_out_contiguous_runs() {
        let k = key(1);
        let mut pool = Pool::default();
        for n in [2, 0, 1, 4] {
            pool.insert(tx(&k, n, 20_000, 1), &rich(0), &PRICES)
                .expect("admitted");
        }
        let sender = k.address();
        assert_eq!(pool.next_nonce(&sender, 0), 3);
        let c = pool.candidates(100, |_| 0);
        assert_eq!(
            c.iter().map(|t| t.tx.nonce).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        // Blocks not yet executed used nonces 0 and 1.
        let c = pool.candidates(100, |_| 2);
        assert_eq!(c.iter().map(|t| t.tx.nonce).collect::<Vec<_>>(), vec![2]);
        assert_eq!(pool.prune(|_| 2), 2);
        assert_eq!(pool.len(), 2);
    }

    #[test]
    fn refuses_with_the_rule_that_failed() {
        let k = key(2);
        let mut pool = Pool::default();
        assert_eq!(
            pool.insert(tx(&k, 0, 20_000, 1), &rich(3), &PRICES),
            Err(PoolError::NonceTooLow {
                expected: 3,
                got: 0
            })
        );
        assert!(matches!(
            pool.insert(tx(&k, 1_000, 20_000, 1), &rich(0), &PRICES),
            Err(PoolError::NonceTooHigh { .. })
        ));
        assert!(matches!(
            pool.insert(tx(&k, 0, 9_999, 1), &rich(0), &PRICES),
            Err(PoolError::FeeBelowBasefee { what: "cycle", .. })
        ));
        let poor = Account {
            balance: 1,
            ..Account::default()
        };
        assert!(matches!(
            pool.insert(tx(&k, 0, 20_000, 1), &poor, &PRICES),
            Err(PoolError::InsufficientBalance { .. })
        ));
        let t = tx(&k, 0, 20_000, 1);
        pool.insert(t.clone(), &rich(0), &PRICES).expect("admitted");
        assert_eq!(
            pool.insert(t.clone(), &rich(0), &PRICES),
            Err(PoolError::AlreadyKnown(t.hash))
        );
        assert!(!pool.is_empty() && pool.bytes() == t.size);
    }

    #[test]
    fn replacement_needs_a_fee_bump() {
        let k = key(3);
        let mut pool = Pool::default();
        let first = tx(&k, 0, 20_000, 100);
        pool.insert(first.clone(), &rich(0), &PRICES)
            .expect("admitted");
        assert!(matches!(
            pool.insert(tx(&k, 0, 21_000, 105), &rich(0), &PRICES),
            Err(PoolError::Underpriced { .. })
        ));
        let better = tx(&k, 0, 22_000, 110);
        assert_eq!(
            pool.insert(better.clone(), &rich(0), &PRICES),
            Ok(Admitted::Replaced(first.hash))
        );
        assert_eq!(pool.len(), 1);
        assert!(pool.contains(&better.hash) && !pool.contains(&first.hash));
    }

    #[test]
    fn a_full_pool_evicts_the_worst_payer_or_refuses() {
        let mut pool = Pool::new(PoolConfig {
            max_txs: 2,
            ..PoolConfig::default()
        });
        let (a, b, c) = (key(4), key(5), key(6));
        pool.insert(tx(&a, 0, 20_000, 5), &rich(0), &PRICES)
            .expect("a");
        let cheap = tx(&b, 0, 20_000, 1);
        pool.insert(cheap.clone(), &rich(0), &PRICES).expect("b");
        assert_eq!(
            pool.insert(tx(&c, 0, 20_000, 1), &rich(0), &PRICES),
            Err(PoolError::PoolFull)
        );
        pool.insert(tx(&c, 0, 20_000, 9), &rich(0), &PRICES)
            .expect("c");
        assert!(!pool.contains(&cheap.hash));
        assert_eq!(pool.len(), 2);
    }

    #[test]
    fn transactions_behind_a_gap_expire() {
        let k = key(8);
        let mut pool = Pool::new(PoolConfig {
            queued_lifetime: std::time::Duration::from_secs(60),
            ..PoolConfig::default()
        });
        let start = Instant::now();
        // Nonce 0 runs now; nonces 2 and 3 wait for the missing 1.
        for n in [0, 2, 3] {
            pool.insert_at(tx(&k, n, 20_000, 1), &rich(0), &PRICES, start)
                .expect("admitted");
        }
        assert_eq!(
            pool.expire(start + std::time::Duration::from_secs(59), |_| 0),
            0
        );
        assert_eq!(
            pool.expire(start + std::time::Duration::from_secs(61), |_| 0),
            2
        );
        assert_eq!(
            pool.all().map(|t| t.tx.nonce).collect::<Vec<_>>(),
            vec![0],
            "the runnable transaction stays, however old"
        );
    }

    #[test]
    fn per_sender_cap() {
        let k = key(7);
        let mut pool = Pool::new(PoolConfig {
            max_per_sender: 2,
            ..PoolConfig::default()
        });
        pool.insert(tx(&k, 0, 20_000, 1), &rich(0), &PRICES)
            .expect("0");
        pool.insert(tx(&k, 1, 20_000, 1), &rich(0), &PRICES)
            .expect("1");
        assert_eq!(
            pool.insert(tx(&k, 2, 20_000, 1), &rich(0), &PRICES),
            Err(PoolError::SenderFull { max: 2 })
        );
    }
}
