//! The runner's Prometheus metrics (`GET /metrics`): jobs by stage, execution latency,
//! earnings, faults, the height it follows.

use prometheus_client::{
    encoding::{EncodeLabelSet, text::encode},
    metrics::{counter::Counter, family::Family, gauge::Gauge, histogram::Histogram},
    registry::Registry,
};
use std::sync::atomic::AtomicU64;

/// A job's stage label.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StageLabel {
    pub stage: &'static str,
}

/// Every metric, registered once.
pub struct Metrics {
    registry: Registry,
    pub jobs: Family<StageLabel, Counter>,
    pub execution_seconds: Histogram,
    pub earnings: Counter<u64, AtomicU64>,
    pub height: Gauge,
    pub active: Gauge,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("cowboy_runner");
        let jobs = Family::<StageLabel, Counter>::default();
        registry.register(
            "jobs",
            "Jobs by stage: committed, revealed, aggregated, settled, faulted, skipped, failed",
            jobs.clone(),
        );
        let execution_seconds =
            Histogram::new([0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0]);
        registry.register(
            "execution_seconds",
            "Time running a job, from assignment to commitment",
            execution_seconds.clone(),
        );
        let earnings = Counter::<u64, AtomicU64>::default();
        registry.register(
            "earnings",
            "Base units paid by settled jobs",
            earnings.clone(),
        );
        let height = Gauge::default();
        registry.register("height", "The last block height seen", height.clone());
        let active = Gauge::default();
        registry.register("active_jobs", "Jobs being executed now", active.clone());
        Self {
            registry,
            jobs,
            execution_seconds,
            earnings,
            height,
            active,
        }
    }
}

impl Metrics {
    /// Counts one job reaching `stage`.
    pub fn job(&self, stage: &'static str) {
        self.jobs.get_or_create(&StageLabel { stage }).inc();
    }

    /// The OpenMetrics text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}
