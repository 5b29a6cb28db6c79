//! Rebuilds the crate when an embedded template or example changes (include_dir cannot tell
//! cargo on stable Rust).

fn main() {
    println!("cargo:rerun-if-changed=../../templates");
    println!("cargo:rerun-if-changed=../../examples");
}
