//! `cowboy runner-sim`: adversarial runner fleets on a laptop. N real runners
//! ([`cowboy_runner::Runner`]: real keys, real transactions, real executors) run in one process
//! against any node or devnet, each with a behaviour ([`fleet::Behaviour`]: honest, lazy, slow,
//! liar, colluding, crash, flaky) through the runner's conduct hook, with hermetic backends
//! ([`mock`]: HTTP record / replay / live, a deterministic LLM stand-in, an MCP stub), and a
//! report at the end ([`sim::Report`]); and [`diff`], which shows authors what differs between
//! live fetches of an HTTP job.

pub mod behaviour;
pub mod diff;
pub mod fleet;
pub mod mock;
pub mod sim;

pub use fleet::{Behaviour, Fleet};
pub use sim::{Options, Report, Simulation};
