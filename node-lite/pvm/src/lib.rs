//! The Python VM (PVM): deterministic, metered, sandboxed Python actors on RustPython.

pub mod alloc;
pub mod bound_helpers;
pub mod call_state;
pub mod charge_constant;
pub mod cost;
pub mod dynamic;
pub mod engine;
pub mod fast_builtin;
pub mod fidelity;
pub mod format_spec;
pub mod format_string;
pub mod free_lists;
pub mod host;
pub mod identity;
pub mod instrument;
pub mod library;
pub mod library_objects;
pub mod meter;
pub mod method_cache;
pub mod natives;
pub mod patches;
pub mod prices;
pub mod pyconv;
pub mod pyregex;
pub mod real_functions;
pub mod regex_search;
pub mod reversed_dict;
pub mod rules;
pub mod sandbox;
pub mod sizes;
pub mod stdlib;
pub mod string_pool;
pub mod testing;
pub mod text;
pub mod type_names;
pub mod validate;
pub mod value;

pub use engine::{ActorCode, CallError, CallOutcome, Engine, ErrorKind, Limits};
#[cfg(feature = "test-host")]
pub use host::MemoryHost;
pub use host::{BlockInfo, CallContext, Effects, Host};
pub use value::Value;
pub mod thread;
pub use thread::PvmThread;
pub mod metered_iter;
