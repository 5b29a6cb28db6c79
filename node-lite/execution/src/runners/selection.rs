//! Runner selection (CIP-2 §5 with the spec README's "Selection seed", "Shuffle" and
//! "Aggregator" decisions): pure functions from public, consensus-fixed inputs to the runners
//! that must execute a job, so any node (and any runner) can recompute and verify them.
//!
//! - [`seed`]: `keccak256("cowboy-runner-select-v3:" ‖ round ‖ beacon ‖ job_id)`, where `round`
//!   is the named absolute round encoded as commonware encodes it (two LEB128 varints) and
//!   `beacon` that round's verified threshold seed signature;
//! - [`retry_seed`]: `keccak256(seed ‖ "retry:" ‖ retry_count as 4-byte LE)`;
//! - [`select`]: the stake-weighted Fisher-Yates shuffle over a [`Snapshot`] (candidates sorted by
//!   address bytes), `weight = floor(log2(stake / MIN_STAKE + 1)) + 1`;
//! - [`aggregator`]: drawn uniformly with `keccak256(seed ‖ "aggregator")` among the committee
//!   members whose reputation is at least the committee's median;
//! - [`Snapshot::root`]: the candidate snapshot's Merkle root, stored with the job.

use super::{AGGREGATOR_LABEL, DISPUTE_LABEL, RETRY_LABEL, SELECTION_DOMAIN};
use commonware_codec::Encode;
use cowboy_types::{Address, Hash, block::Round, keccak256};
use std::num::NonZeroU64;

/// Why a committee cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error("a committee of {wanted} needs {wanted} candidates, but only {available} qualify")]
    NotEnoughCandidates { wanted: usize, available: usize },
    #[error("runner {0} appears twice in the candidate list")]
    DuplicateCandidate(Address),
}

/// A runner that passed the candidate filters (CIP-2 §4), with the stake its weight is
/// computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub address: Address,
    pub stake: u64,
}

/// A candidate list as selection needs it: sorted ascending by address bytes, each runner once
/// (CIP-2 §4 "Candidate list ordering": every node must arrive at the same list).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    candidates: Vec<Candidate>,
}

impl Snapshot {
    /// Sorts `candidates` by address; a runner listed twice is refused (the filters produce
    /// each runner at most once, so a duplicate is a bug upstream, not something to merge).
    pub fn new(mut candidates: Vec<Candidate>) -> Result<Self, SelectionError> {
        candidates.sort_by_key(|c| c.address.0);
        if let Some(w) = candidates.windows(2).find(|w| w[0].address == w[1].address) {
            return Err(SelectionError::DuplicateCandidate(w[0].address));
        }
        Ok(Self { candidates })
    }

    /// A snapshot of candidates already in strictly increasing address order (the Runner
    /// Registry's storage order).
    pub(crate) fn sorted(candidates: Vec<Candidate>) -> Self {
        debug_assert!(
            candidates
                .windows(2)
                .all(|w| w[0].address.0 < w[1].address.0)
        );
        Self { candidates }
    }

    /// The candidate snapshot a job recorded at submission.
    pub fn of_job(job: &cowboy_types::job::JobRecord) -> Result<Self, SelectionError> {
        Self::new(
            job.candidates
                .iter()
                .map(|c| Candidate {
                    address: c.address,
                    stake: c.stake,
                })
                .collect(),
        )
    }

    /// The candidates, in address order.
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    pub fn len(&self) -> usize {
        self.candidates.len()
    }

    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    /// The snapshot without `excluded` (a retry leaves out the runners that timed out, CIP-2
    /// §6); still sorted.
    pub fn without(&self, excluded: &[Address]) -> Self {
        Self {
            candidates: self
                .candidates
                .iter()
                .filter(|c| !excluded.contains(&c.address))
                .copied()
                .collect(),
        }
    }

    /// The snapshot's Merkle root (CIP-2 "Historical Snapshot Integrity"): the keccak256
    /// binary Merkle tree the header's roots use, over one leaf per candidate in address
    /// order, `keccak256(address ‖ stake as 8-byte big-endian)`.
    pub fn root(&self) -> Hash {
        crate::roots::root(self.candidates.iter().map(|c| {
            let mut leaf = [0u8; Address::LEN + 8];
            leaf[..Address::LEN].copy_from_slice(&c.address.0);
            leaf[Address::LEN..].copy_from_slice(&c.stake.to_be_bytes());
            keccak256(&leaf)
        }))
    }
}

/// The selection seed of job `job_id`, from the verified threshold seed signature `beacon` of
/// the absolute round `round`.
pub fn seed(round: Round, beacon: &[u8], job_id: &Hash) -> Hash {
    let round = round.encode();
    let mut input =
        Vec::with_capacity(SELECTION_DOMAIN.len() + round.len() + beacon.len() + Hash::LEN);
    input.extend_from_slice(SELECTION_DOMAIN);
    input.extend_from_slice(&round);
    input.extend_from_slice(beacon);
    input.extend_from_slice(&job_id.0);
    keccak256(&input)
}

/// The seed of the `retry`-th re-selection of a job whose first seed is `seed`.
pub fn retry_seed(seed: &Hash, retry: u32) -> Hash {
    let mut input = Vec::with_capacity(Hash::LEN + RETRY_LABEL.len() + 4);
    input.extend_from_slice(&seed.0);
    input.extend_from_slice(RETRY_LABEL);
    input.extend_from_slice(&retry.to_le_bytes());
    keccak256(&input)
}

/// The seed of a job's draw number `retry`: the first draw's from the beacon of `round`, a
/// retry's from the first draw's seed (`first`), and a dispute's fresh committee's from a
/// beacon nobody knew when challenging, `keccak256("cowboy-dispute:" ‖ seed(round, beacon))`.
pub fn draw_seed(
    job_id: &Hash,
    first: Option<Hash>,
    disputed: bool,
    round: Round,
    beacon: &[u8],
    retry: u32,
) -> Hash {
    match (disputed, first) {
        (true, _) => keccak256(&[DISPUTE_LABEL, &seed(round, beacon, job_id).0].concat()),
        (false, Some(first)) => retry_seed(&first, retry),
        (false, None) => seed(round, beacon, job_id),
    }
}

/// One draw of a job re-run from the job's record (`cowboy job show --verify-selection`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Replayed {
    pub retry: u32,
    /// Whether the recorded seed is the one its round, beacon and job id give.
    pub seed_matches: bool,
    /// The committee the recorded seed and snapshot draw.
    pub committee: Vec<Address>,
    /// Whether it is the recorded committee.
    pub committee_matches: bool,
}

/// Re-runs every draw of `job` from what its record holds: the candidate snapshot (whose root
/// is checked first), the stake floor, each draw's round, beacon and seed, and the runners the
/// draw found unavailable. Each draw is made without every runner an earlier draw named; a
/// retry's committee starts with the previous draw's members that kept their seats (they
/// committed in time), in that draw's order, and only the seats after them are drawn. The
/// beacon's own signature is not checked here: the node verified it against the validators'
/// threshold key before the block was executed.
pub fn replay(job: &cowboy_types::job::JobRecord) -> Result<(bool, Vec<Replayed>), SelectionError> {
    let snapshot = Snapshot::of_job(job)?;
    let root_matches = snapshot.root() == job.snapshot_root;
    let min_stake = NonZeroU64::new(job.min_stake).unwrap_or(NonZeroU64::MIN);
    let dispute_round = job.dispute.as_ref().map(|d| Round {
        epoch: d.bound_epoch,
        view: d.bound_view,
    });
    let mut out = Vec::new();
    for (k, draw) in job.draws.iter().enumerate() {
        let round = Round {
            epoch: draw.round_epoch,
            view: draw.round_view,
        };
        let disputed = dispute_round.is_some_and(|d| (round.epoch, round.view) > (d.epoch, d.view));
        let first = (k > 0).then(|| job.draws[0].seed);
        let expected = draw_seed(&job.id, first, disputed, round, &draw.beacon, draw.retry);
        let earlier: Vec<Address> = job.draws[..k]
            .iter()
            .flat_map(|d| d.committee.iter().copied())
            .collect();
        // A dispute's first draw is a fresh committee; any other retry keeps the members of
        // the previous draw that lead its committee.
        let previous_disputed = k > 0 && {
            let p = &job.draws[k - 1];
            dispute_round.is_some_and(|d| (p.round_epoch, p.round_view) > (d.epoch, d.view))
        };
        let kept: Vec<Address> = match job.draws[..k].last() {
            Some(p) if previous_disputed == disputed => draw
                .committee
                .iter()
                .copied()
                .take_while(|a| p.committee.contains(a))
                .collect(),
            _ => Vec::new(),
        };
        let pool = snapshot.without(&earlier).without(&draw.unavailable);
        let seats = draw.committee.len().saturating_sub(kept.len());
        let mut committee = kept;
        committee.extend(select(&pool, &draw.seed, seats, min_stake)?);
        out.push(Replayed {
            retry: draw.retry,
            seed_matches: expected == draw.seed,
            committee_matches: committee.as_slice() == draw.committee.as_slice(),
            committee,
        });
    }
    Ok((root_matches, out))
}

/// A runner's selection weight: `floor(log2(stake / min_stake + 1)) + 1`, integer division
/// (1024× the floor gives 11× the weight, CIP-2 "Stake Concentration").
pub fn weight(stake: u64, min_stake: NonZeroU64) -> u64 {
    let ratio = u128::from(stake / min_stake.get()) + 1;
    u64::from(u128::BITS - ratio.leading_zeros())
}

/// The first 8 bytes of `hash`, little-endian.
fn word(hash: &Hash) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&hash.0[..8]);
    u64::from_le_bytes(w)
}

/// Draws a committee of `m` runners from `snapshot` with `seed` (CIP-2 §5):
///
/// ```text
/// for i in 0..m:
///     hash = keccak256(current_seed ‖ i as 8-byte LE)
///     r = u64 LE of hash[0..8] mod sum(weights[i..])
///     j = first index ≥ i whose cumulative weight from i exceeds r
///     swap i and j; current_seed = hash
/// ```
///
/// The committee is returned in draw order.
pub fn select(
    snapshot: &Snapshot,
    seed: &Hash,
    m: usize,
    min_stake: NonZeroU64,
) -> Result<Vec<Address>, SelectionError> {
    let n = snapshot.len();
    if m > n {
        return Err(SelectionError::NotEnoughCandidates {
            wanted: m,
            available: n,
        });
    }
    let mut order: Vec<(Address, u64)> = snapshot
        .candidates
        .iter()
        .map(|c| (c.address, weight(c.stake, min_stake)))
        .collect();
    // Each weight is at most 65, so the sum of any real candidate list fits a u64.
    let mut remaining: u64 = order.iter().map(|(_, w)| *w).sum();
    let mut current = *seed;
    for i in 0..m {
        let mut input = [0u8; Hash::LEN + 8];
        input[..Hash::LEN].copy_from_slice(&current.0);
        input[Hash::LEN..].copy_from_slice(&(i as u64).to_le_bytes());
        let hash = keccak256(&input);
        let r = word(&hash) % remaining;
        let mut cumulative = 0u64;
        let mut pick = i;
        for (j, (_, w)) in order.iter().enumerate().skip(i) {
            cumulative += w;
            if r < cumulative {
                pick = j;
                break;
            }
        }
        order.swap(i, pick);
        remaining -= order[i].1;
        current = hash;
    }
    Ok(order.into_iter().take(m).map(|(a, _)| a).collect())
}

/// A committee member as the aggregator draw sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    pub address: Address,
    pub reputation: u64,
}

/// The committee's aggregator: members whose reputation is at least the committee's
/// `percentile`-th reputation (nearest rank, rounding down: the median for 50) are eligible,
/// in committee order, and `keccak256(seed ‖ "aggregator")`'s first 8 bytes (LE) modulo their
/// number picks one. `None` for an empty committee.
pub fn aggregator(committee: &[Member], seed: &Hash, percentile: u64) -> Option<Address> {
    if committee.is_empty() {
        return None;
    }
    let mut reputations: Vec<u64> = committee.iter().map(|m| m.reputation).collect();
    reputations.sort_unstable();
    let rank = (reputations.len() - 1) * percentile.min(100) as usize / 100;
    let threshold = reputations[rank];
    let eligible: Vec<Address> = committee
        .iter()
        .filter(|m| m.reputation >= threshold)
        .map(|m| m.address)
        .collect();
    let mut input = Vec::with_capacity(Hash::LEN + AGGREGATOR_LABEL.len());
    input.extend_from_slice(&seed.0);
    input.extend_from_slice(AGGREGATOR_LABEL);
    let draw = word(&keccak256(&input)) % eligible.len() as u64;
    Some(eligible[draw as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLOOR: NonZeroU64 = NonZeroU64::new(10_000).expect("non-zero");

    fn candidates(stakes: &[u64]) -> Snapshot {
        Snapshot::new(
            stakes
                .iter()
                .enumerate()
                .map(|(i, s)| Candidate {
                    address: Address([i as u8 + 0x10; 20]),
                    stake: *s,
                })
                .collect(),
        )
        .expect("unique")
    }

    #[test]
    fn weights_compress_stake_logarithmically() {
        assert_eq!(weight(0, FLOOR), 1);
        assert_eq!(weight(10_000, FLOOR), 2);
        assert_eq!(weight(29_999, FLOOR), 2);
        assert_eq!(weight(30_000, FLOOR), 3);
        // 1024× the floor: 11× the weight of a runner at the floor's lower edge.
        assert_eq!(weight(1_023 * 10_000, FLOOR), 11);
        assert_eq!(weight(u64::MAX, NonZeroU64::MIN), 65);
    }

    #[test]
    fn a_committee_is_distinct_and_deterministic() {
        let s = candidates(&[10_000, 20_000, 1_000_000, 10_000, 50_000, 10_000, 10_000]);
        let seed = keccak256(b"seed");
        let a = select(&s, &seed, 5, FLOOR).expect("enough");
        let b = select(&s, &seed, 5, FLOOR).expect("enough");
        assert_eq!(a, b);
        let mut unique = a.clone();
        unique.sort_by_key(|a| a.0);
        unique.dedup();
        assert_eq!(unique.len(), 5);
        assert_eq!(select(&s, &seed, 7, FLOOR).expect("all").len(), 7);
        assert_eq!(
            select(&s, &seed, 8, FLOOR),
            Err(SelectionError::NotEnoughCandidates {
                wanted: 8,
                available: 7
            })
        );
    }

    #[test]
    fn stake_raises_the_chance_of_selection() {
        // One runner with 1023× the floor (weight 11) among nine at the floor (weight 2):
        // drawn first with probability 11/29.
        let s = candidates(&[
            10_230_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000,
        ]);
        let whale = s.candidates()[0].address;
        let firsts = (0..2_000u32)
            .filter(|i| {
                let seed = keccak256(&i.to_le_bytes());
                select(&s, &seed, 1, FLOOR).expect("enough")[0] == whale
            })
            .count();
        // 2,000 × 11/29 ≈ 759; a fair coin over ten would give 200.
        assert!((650..870).contains(&firsts), "{firsts}");
    }

    #[test]
    fn duplicates_are_refused_and_order_is_by_address() {
        let a = Candidate {
            address: Address::system(2),
            stake: 1,
        };
        let b = Candidate {
            address: Address::system(1),
            stake: 1,
        };
        let s = Snapshot::new(vec![a, b]).expect("unique");
        assert_eq!(s.candidates(), &[b, a]);
        assert_eq!(
            Snapshot::new(vec![a, b, a]),
            Err(SelectionError::DuplicateCandidate(a.address))
        );
        assert_ne!(s.root(), Snapshot::new(vec![a]).expect("one").root());
        assert_eq!(s.without(&[a.address]).candidates(), &[b]);
    }

    #[test]
    fn the_aggregator_has_at_least_the_median_reputation() {
        let committee: Vec<Member> = [40u64, 90, 60, 75, 50]
            .iter()
            .enumerate()
            .map(|(i, r)| Member {
                address: Address::system(i as u8 + 1),
                reputation: *r,
            })
            .collect();
        for i in 0..200u32 {
            let pick = aggregator(&committee, &keccak256(&i.to_le_bytes()), 50).expect("some");
            let member = committee
                .iter()
                .find(|m| m.address == pick)
                .expect("member");
            assert!(member.reputation >= 60, "{member:?}");
        }
        assert_eq!(aggregator(&[], &Hash::default(), 50), None);
    }
}
