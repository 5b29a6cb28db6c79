//! Build script of the `cowboy` binary. In release builds on Linux, the linker compresses the
//! debug sections (zlib): the release profile keeps line tables (`debug = "line-tables-only"`)
//! so that a panic's backtrace names file and line, and compressed they cost a fraction of
//! the binary a user `cargo install`s. std's symbolizer reads zlib-compressed sections.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if release && linux {
        println!("cargo:rustc-link-arg-bins=-Wl,--compress-debug-sections=zlib");
    }
}
