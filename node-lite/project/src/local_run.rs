//! `cowboy run`: one actor file deployed on a fresh local chain
//! ([`cowboy_execution::local::LocalChain`]), then one of its handlers called, both in the same
//! block, through the chain's own state transition.

use cowboy_execution::{
    CallTrace,
    local::{Budget, LocalChain, LocalError, LocalReceipt},
};
use cowboy_pvm::validate::Diagnostic;
use cowboy_types::{ActorInstruction, Address, Hash, Instruction};

/// The highest block `cowboy run` may run at: every block below it is made (empty) first.
pub const MAX_HEIGHT: u64 = 100_000;

/// What to run.
#[derive(Clone, Debug)]
pub struct Run {
    /// The actor's source, as written.
    pub source: String,
    /// Who deploys the actor and calls it (funded by the local genesis).
    pub caller: Address,
    /// `__init__`'s arguments, canonically encoded.
    pub init_args: Vec<u8>,
    /// The handler to call after deploying, with its encoded arguments and the value sent.
    pub call: Option<(String, Vec<u8>)>,
    pub value: u64,
    /// The block both run in.
    pub height: u64,
    /// What the actor is deployed declaring (whitepaper §15).
    pub entitlements: cowboy_types::entitlement::ActorEntitlements,
    /// The limits of each of the deploy and the call; `None`: what the CLI gives them on a
    /// chain ([`Budget::Client`]).
    pub budget: Option<Budget>,
}

/// One transaction of a run: its receipt, and the call it made first (its `__init__` or
/// handler), if it got that far.
#[derive(Clone, Debug)]
pub struct Ran {
    pub receipt: LocalReceipt,
    pub hash: Hash,
}

impl Ran {
    /// The transaction's own call (depth 0): `__init__` or the handler.
    pub fn main_call(&self) -> Option<&CallTrace> {
        self.receipt.calls.iter().find(|c| c.depth == 0)
    }
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum RunOutcome {
    /// The source breaks the PVM rules: nothing ran.
    Refused(Vec<Diagnostic>),
    /// Deployed at `actor` (the call runs only if the deploy succeeded).
    Ran {
        actor: Address,
        deploy: Box<Ran>,
        call: Option<Box<Ran>>,
    },
}

/// Why a run could not happen at all.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("--height must be between 1 and {MAX_HEIGHT}, got {0}")]
    Height(u64),
    #[error(transparent)]
    Local(#[from] LocalError),
    #[error("block {height} has no receipt for transaction {hash}")]
    MissingReceipt { height: u64, hash: Hash },
}

/// Runs `run` on a fresh local chain.
pub fn run(run: Run) -> Result<RunOutcome, RunError> {
    if run.height == 0 || run.height > MAX_HEIGHT {
        return Err(RunError::Height(run.height));
    }
    let mut chain = LocalChain::new(&[run.caller])?;
    if let Err(diagnostics) = chain.validate(&run.source)? {
        return Ok(RunOutcome::Refused(diagnostics));
    }
    chain.advance(run.height - 1)?;
    let code_hash = cowboy_types::code_hash(&cowboy_types::canonicalize_source(&run.source));
    let actor = cowboy_types::actor_address(&run.caller, &Hash::ZERO, &code_hash);
    let budget = run.budget.unwrap_or(Budget::Client);
    let deploy = Instruction::Actor(ActorInstruction::Deploy {
        code: run.source,
        salt: Hash::ZERO,
        init_args: run.init_args,
        value: 0,
        entitlements: run.entitlements,
    });
    let deploy = chain.send_as(run.caller, deploy, budget)?;
    let call = match run.call {
        Some((method, args)) => {
            let call = Instruction::Actor(ActorInstruction::Message {
                to: actor,
                method,
                args,
                value: run.value,
            });
            Some(chain.send_as(run.caller, call, budget)?)
        }
        None => None,
    };
    let receipts = chain.produce_block()?;
    let find = |hash: Hash| -> Result<Ran, RunError> {
        receipts
            .iter()
            .find(|r| r.receipt.tx_hash == hash && r.tx_index.is_some())
            .map(|r| Ran {
                receipt: r.clone(),
                hash,
            })
            .ok_or(RunError::MissingReceipt {
                height: run.height,
                hash,
            })
    };
    let deploy = find(deploy)?;
    let deployed = deploy.receipt.receipt.status == cowboy_types::Status::Success;
    let call = match call {
        Some(hash) if deployed => Some(Box::new(find(hash)?)),
        _ => None,
    };
    Ok(RunOutcome::Ran {
        actor,
        deploy: Box::new(deploy),
        call,
    })
}
