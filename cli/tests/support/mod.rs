//! Helpers shared by the process-level tests and benchmarks: free loopback ports, scratch
//! copies of directories and examples.

#![allow(dead_code)]

pub mod devnet;
pub mod upstream;

/// `count` consecutive free loopback ports. They are taken below the kernel's ephemeral range
/// (`ip_local_port_range`), where outgoing connections — ours, or another job's on a shared CI
/// machine — never land, so a port checked free stays free until the node binds it; the start
/// is random, so concurrent test runs rarely probe the same ports. Ports handed out before in
/// this process are never reused, so parallel callers do not collide.
pub fn free_base(count: u16) -> u16 {
    use std::hash::{BuildHasher as _, Hasher as _};
    use std::sync::Mutex;
    static TAKEN: Mutex<Vec<(u16, u16)>> = Mutex::new(Vec::new());
    let (low, high) = outside_ephemeral_range();
    let span = u64::from(high - low - count);
    for _ in 0..10_000 {
        // Each RandomState is keyed differently: its empty hash is a fresh pseudo-random number.
        let random = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        let base = low + (random % span) as u16;
        let mut taken = TAKEN.lock().unwrap_or_else(|p| p.into_inner());
        let overlaps = taken.iter().any(|(b, n)| base < b + n && *b < base + count);
        if !overlaps
            && (0..count).all(|i| std::net::TcpListener::bind(("127.0.0.1", base + i)).is_ok())
        {
            taken.push((base, count));
            return base;
        }
    }
    panic!("no {count} consecutive free ports in {low}..{high}");
}

/// The widest port range outside the kernel's ephemeral one (Linux default 32768–60999).
fn outside_ephemeral_range() -> (u16, u16) {
    let ephemeral = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| {
            let mut it = s.split_whitespace().map(|w| w.parse::<u16>().ok());
            Some((it.next()??, it.next()??))
        });
    match ephemeral {
        None => (10_000, 32_768),
        Some((lo, hi)) => {
            let (below, above) = (lo.saturating_sub(10_000), 65_535u16.saturating_sub(hi));
            if below.max(above) < 1_000 {
                // Nearly every port is ephemeral: nothing better than anywhere.
                (10_000, 65_000)
            } else if below >= above {
                (10_000, lo)
            } else {
                (hi + 1, 65_535)
            }
        }
    }
}

/// The JSON a successful `cowboy ARGS --json` printed; fails the test with both outputs
/// otherwise.
pub fn json_output(args: &[&str], out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "cowboy {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    serde_json::from_slice(&out.stdout).expect("json output")
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

/// The lines `out` (a child's stdout) writes, on a channel as they come: a reader thread ends
/// with the stream, so a test bounds each wait with `recv_timeout` instead of blocking.
pub fn lines(out: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead as _;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}
