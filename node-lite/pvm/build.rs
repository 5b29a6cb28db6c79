//! Embeds the Python sources the PVM runs: the pure-Python standard-library modules behind the
//! import whitelist (taken from the `rustpython-pylib` dependency, never copied into this
//! repository) and Cowboy's own modules under `python/`. The runtime compiles them with the
//! metering instrumenter at start-up, so library code is metered exactly like actor code.

// A build script fails the build on any error: that is its way to report one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{env, fmt::Write as _, fs, path::Path};

/// Standard-library modules the whitelisted modules need, transitively (dotted names).
const STDLIB: &[&str] = include!("stdlib_modules.in");

fn main() {
    let lib = Path::new(rustpython_pylib::LIB_PATH);
    let mut out = String::from("pub static STDLIB_SOURCES: &[LibrarySource] = &[\n");
    for name in STDLIB {
        let rel = name.replace('.', "/");
        let (path, package) = if lib.join(&rel).join("__init__.py").exists() {
            (lib.join(&rel).join("__init__.py"), true)
        } else {
            (lib.join(format!("{rel}.py")), false)
        };
        assert!(
            path.exists(),
            "stdlib module {name} not found at {}",
            path.display()
        );
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    LibrarySource {{ name: {name:?}, package: {package}, source: include_str!({:?}) }},",
            path.display().to_string()
        )
        .expect("write to string");
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").expect("OUT_DIR")).join("stdlib_sources.rs");
    fs::write(&dest, out).expect("write stdlib_sources.rs");
    println!("cargo:rerun-if-changed=stdlib_modules.in");
    println!("cargo:rerun-if-changed=build.rs");
}
