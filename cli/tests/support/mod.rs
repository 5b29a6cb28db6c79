//! Helpers shared by the process-level tests and benchmarks: free loopback ports.

#![allow(dead_code)]

/// A free port range: the OS picks one port; we use it and the `count - 1` after it. Ports
/// handed out before in this process are never reused, so parallel callers do not collide.
pub fn free_base(count: u16) -> u16 {
    use std::sync::Mutex;
    static TAKEN: Mutex<Vec<(u16, u16)>> = Mutex::new(Vec::new());
    loop {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = l.local_addr().expect("addr").port();
        drop(l);
        let mut taken = TAKEN.lock().unwrap_or_else(|p| p.into_inner());
        let overlaps = taken
            .iter()
            .any(|(b, n)| base < b + n && *b < base.saturating_add(count));
        if base < 60_000
            && !overlaps
            && (0..count).all(|i| std::net::TcpListener::bind(("127.0.0.1", base + i)).is_ok())
        {
            taken.push((base, count));
            return base;
        }
    }
}

/// Copies the directory `from` to `to` (recursively, leaving out `build/` output), so tests
/// build and write in a scratch copy and never in the checkout.
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            if entry.file_name() != "build" {
                copy_tree(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// A scratch copy of `examples/NAME` under `into`.
pub fn example(name: &str, into: &std::path::Path) -> std::path::PathBuf {
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name);
    let copy = into.join(name);
    copy_tree(&source, &copy);
    copy
}
