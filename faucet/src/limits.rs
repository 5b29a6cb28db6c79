//! Sliding-window rate limits: at most `count` grants per `window_s` seconds per key. Time is
//! passed in, so tests are deterministic.

use serde::{Deserialize, Serialize};
use std::{
    collections::{HashMap, VecDeque},
    hash::Hash,
    time::{Duration, Instant},
};

/// At most `count` requests per `window_s` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Limit {
    pub count: u32,
    pub window_s: u64,
}

impl Limit {
    fn window(&self) -> Duration {
        Duration::from_secs(self.window_s)
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.count == 1 { "" } else { "s" };
        write!(f, "{} request{s} per {} s", self.count, self.window_s)
    }
}

/// Grants per key within the window.
#[derive(Debug)]
pub struct Limiter<K> {
    limit: Limit,
    grants: HashMap<K, VecDeque<Instant>>,
}

impl<K: Eq + Hash + Clone> Limiter<K> {
    pub fn new(limit: Limit) -> Self {
        Self {
            limit,
            grants: HashMap::new(),
        }
    }

    pub fn limit(&self) -> Limit {
        self.limit
    }

    /// `Ok` if `key` may have one more grant at `now`, else how long until it may.
    pub fn check(&mut self, key: &K, now: Instant) -> Result<(), Duration> {
        let window = self.limit.window();
        let Some(times) = self.grants.get_mut(key) else {
            return if self.limit.count == 0 {
                Err(window)
            } else {
                Ok(())
            };
        };
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= window)
        {
            times.pop_front();
        }
        if times.len() < self.limit.count as usize {
            return Ok(());
        }
        match times.front() {
            Some(oldest) => Err(window.saturating_sub(now.duration_since(*oldest))),
            None => Err(window),
        }
    }

    /// Records a grant to `key` at `now`.
    pub fn record(&mut self, key: K, now: Instant) {
        self.grants.entry(key).or_default().push_back(now);
        // Keep memory bounded: forget keys whose grants all left the window.
        if self.grants.len() > 100_000 {
            let window = self.limit.window();
            self.grants
                .retain(|_, t| t.back().is_some_and(|l| now.duration_since(*l) < window));
        }
    }

    /// Takes back the latest grant to `key` (the transfer it allowed did not happen).
    pub fn undo(&mut self, key: &K) {
        if let Some(times) = self.grants.get_mut(key) {
            times.pop_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_up_to_count_then_waits_for_the_oldest_to_age_out() {
        let t0 = Instant::now();
        let mut l = Limiter::new(Limit {
            count: 2,
            window_s: 60,
        });
        assert_eq!(l.check(&"a", t0), Ok(()));
        l.record("a", t0);
        l.record("a", t0 + Duration::from_secs(10));
        assert_eq!(
            l.check(&"a", t0 + Duration::from_secs(20)),
            Err(Duration::from_secs(40))
        );
        assert_eq!(l.check(&"b", t0), Ok(()), "other keys are independent");
        assert_eq!(l.check(&"a", t0 + Duration::from_secs(60)), Ok(()));
        l.undo(&"a");
        assert_eq!(l.check(&"a", t0 + Duration::from_secs(20)), Ok(()));
    }
}
