//! Rebuilds the crate when an embedded template or example changes (include_dir cannot tell
//! cargo on stable Rust).

// A build script fails the build on any error: that is its way to report one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

fn main() {
    println!("cargo:rerun-if-changed=../../templates");
    println!("cargo:rerun-if-changed=../../examples");
}
