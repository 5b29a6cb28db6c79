//! The Python VM (PVM): deterministic, metered, sandboxed Python actors on RustPython.

pub mod cost;
pub mod instrument;
pub mod value;
pub mod validate;
pub mod alloc;
pub mod meter;
