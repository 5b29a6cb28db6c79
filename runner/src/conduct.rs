//! How a runner behaves once it has run a job. A real runner is [`Honest`]; `cowboy runner-sim`
//! gives simulated runners the adversarial conducts (lazy, slow, liar, colluding, crash,
//! flaky) through this one hook, so they run the same daemon as an operator's runner.

use crate::exec::Outcome;
use cowboy_types::job::JobRecord;

/// What to do with a job's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Commit to this outcome and reveal it.
    Commit(Outcome),
    /// Never commit (the slot times out and is re-selected).
    Skip,
    /// Commit only after the commit deadline (the chain refuses it).
    Late(Outcome),
    /// Commit, then stop acting altogether (a crash between commit and reveal).
    CommitThenHalt(Outcome),
}

/// A runner's behaviour.
pub trait Conduct: Send + Sync + 'static {
    /// Whether to run `job` at all (a lazy runner does not).
    fn runs(&self, _job: &JobRecord) -> bool {
        true
    }
    /// What to do with the outcome of `job`.
    fn plan(&self, job: &JobRecord, outcome: Outcome) -> Plan;
}

/// Commits to what it computed.
pub struct Honest;

impl Conduct for Honest {
    fn plan(&self, _job: &JobRecord, outcome: Outcome) -> Plan {
        Plan::Commit(outcome)
    }
}

/// Commits honestly to its first job and then halts: the crash-recovery drill of
/// `cowboy runner run --halt-after-commit` (kill the process, restart it without the flag, and
/// it reveals from its journal).
pub struct HaltAfterCommit;

impl Conduct for HaltAfterCommit {
    fn plan(&self, _job: &JobRecord, outcome: Outcome) -> Plan {
        Plan::CommitThenHalt(outcome)
    }
}
