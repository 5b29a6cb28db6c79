//! Result pushes (spec README "Commitments": the aggregator reveals the committee's results in
//! one batch). A committee member sends its reveal to the aggregator's endpoint
//! (`POST {endpoint}/v1/push`), signed with its account key over
//! `keccak256("cowboy-push-v1" ‖ job_id ‖ commitment)`, so only the member can place (or
//! replace) its own entry; the aggregator keeps, per job, the latest signed push of each member
//! of the job's current committee, and reveals those that open their on-chain commitments.

use cowboy_types::{Address, Hash, Signature, job::Reveal, keccak256};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Jobs an aggregator holds pushes for at once (oldest dropped first).
pub const MAX_JOBS: usize = 4096;

/// What a member sends the aggregator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Push {
    pub job_id: Hash,
    pub reveal: Reveal,
    pub signature: Signature,
}

/// The hash a push's signature covers.
pub fn digest(job_id: &Hash, reveal: &Reveal) -> Hash {
    let mut data = b"cowboy-push-v1".to_vec();
    data.extend_from_slice(&job_id.0);
    data.extend_from_slice(&reveal.commitment().0);
    keccak256(&data)
}

impl Push {
    /// `reveal` for `job_id`, signed by `key` (whose address must be `reveal.runner`).
    pub fn sign(job_id: Hash, reveal: Reveal, key: &cowboy_crypto::PrivateKey) -> Self {
        let signature = key.sign_hash(&digest(&job_id, &reveal));
        Self {
            job_id,
            reveal,
            signature,
        }
    }

    /// Whether the signature is the reveal's runner's.
    pub fn signer_ok(&self) -> bool {
        cowboy_crypto::recover(&digest(&self.job_id, &self.reveal), &self.signature)
            .is_ok_and(|a| a == self.reveal.runner)
    }
}

/// The pushes an aggregator holds.
#[derive(Default)]
pub struct Pool {
    jobs: HashMap<Hash, (u64, BTreeMap<Address, Reveal>)>,
    next: u64,
}

impl Pool {
    /// Keeps `push` (already checked: signed by a member of the job's committee).
    pub fn insert(&mut self, push: Push) {
        if !self.jobs.contains_key(&push.job_id) && self.jobs.len() >= MAX_JOBS {
            // Drop the job pushed to first: it is the one most likely finished.
            if let Some(oldest) = self
                .jobs
                .iter()
                .min_by_key(|(_, (n, _))| *n)
                .map(|(k, _)| *k)
            {
                self.jobs.remove(&oldest);
            }
        }
        self.next += 1;
        let n = self.next;
        self.jobs
            .entry(push.job_id)
            .or_insert_with(|| (n, BTreeMap::new()))
            .1
            .insert(push.reveal.runner, push.reveal);
    }

    /// The reveals held for `job_id`.
    pub fn reveals(&self, job_id: &Hash) -> Vec<Reveal> {
        self.jobs
            .get(job_id)
            .map(|(_, m)| m.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Forgets `job_id` (revealed or finished).
    pub fn remove(&mut self, job_id: &Hash) {
        self.jobs.remove(job_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowboy_types::bounded::Bytes;

    #[test]
    fn only_the_members_own_key_signs_its_push() {
        let key = cowboy_crypto::PrivateKey::from_bytes(&[7; 32]).expect("key");
        let other = cowboy_crypto::PrivateKey::from_bytes(&[8; 32]).expect("key");
        let reveal = Reveal {
            runner: key.address(),
            result: Bytes::new(b"1".to_vec()).expect("fits"),
            salt: Hash([1; 32]),
            tokens: 0,
            ms: 0,
            embedding: Default::default(),
            fault: None,
        };
        assert!(Push::sign(Hash([2; 32]), reveal.clone(), &key).signer_ok());
        assert!(!Push::sign(Hash([2; 32]), reveal.clone(), &other).signer_ok());
        let mut tampered = Push::sign(Hash([2; 32]), reveal, &key);
        tampered.reveal.salt = Hash([9; 32]);
        assert!(!tampered.signer_ok());
    }
}
