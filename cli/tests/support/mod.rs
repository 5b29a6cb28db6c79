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
    let value = serde_json::from_slice(&out.stdout).expect("json output");
    check_published_schema(args, &value);
    value
}

/// Checks `value`, what `cowboy ARGS --json` printed, against the JSON Schema the CLI publishes
/// for that command (`cowboy schema COMMAND`), when it publishes one: every such output a test
/// sees is checked against the contract.
pub fn check_published_schema(args: &[&str], value: &serde_json::Value) {
    let Some((command, schema)) = published_schema(args) else {
        return;
    };
    let validator = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("the schema of `cowboy {command}` is not a JSON Schema: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{e} (at {})", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "`cowboy {command} --json` printed JSON its published schema refuses:\n{}\n{value:#}",
        errors.join("\n")
    );
}

/// The command `args` run (as `cowboy schema` names it) and its schema, if one is published.
pub fn published_schema(args: &[&str]) -> Option<(String, serde_json::Value)> {
    use std::{
        collections::HashMap,
        sync::{Mutex, OnceLock},
    };
    static LISTED: OnceLock<Vec<String>> = OnceLock::new();
    static SCHEMAS: OnceLock<Mutex<HashMap<String, serde_json::Value>>> = OnceLock::new();
    let run = |args: &[&str]| -> serde_json::Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cowboy"))
            .args(args)
            .output()
            .expect("cowboy schema");
        assert!(out.status.success(), "cowboy {args:?} failed");
        serde_json::from_slice(&out.stdout).expect("a JSON schema")
    };
    let listed = LISTED.get_or_init(|| {
        run(&["--json", "schema"])
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|o| o["command"].as_str().map(str::to_owned))
            .collect()
    });
    let words: Vec<&str> = args
        .iter()
        .take_while(|a| !a.starts_with('-'))
        .copied()
        .collect();
    let first = words.first()?;
    let mut candidates = Vec::new();
    if args.contains(&"--watch") {
        candidates.push(format!("{first} --watch"));
    }
    // The longest command the words start with (`devnet snapshot save`, `timer show`, `call`).
    for n in (1..=words.len().min(3)).rev() {
        candidates.push(words[..n].join(" "));
    }
    let command = candidates.into_iter().find(|c| listed.contains(c))?;
    let mut schemas = SCHEMAS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let schema = schemas
        .entry(command.clone())
        .or_insert_with(|| {
            let mut args = vec!["schema"];
            args.extend(command.split(' '));
            run(&args)
        })
        .clone();
    Some((command, schema))
}

/// `text` with every whole number that falls in a moved block `(base, count, to)` replaced by
/// its counterpart `to + (n - base)`.
pub fn move_ports(text: &str, moves: &[(u16, u16, u16)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        let moved = digits.parse::<u16>().ok().and_then(|n| {
            moves
                .iter()
                .find(|(base, count, _)| (*base..base + count).contains(&n))
                .map(|(base, _, to)| to + (n - base))
        });
        match moved {
            Some(port) => out.push_str(&port.to_string()),
            None => out.push_str(digits),
        }
        digits.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
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

/// A transfer of 1 base unit from `key` to `to`, signed, with room for a transfer's intrinsic
/// cells (137, whitepaper §17.2; only what is used is paid) and fees any test chain admits.
/// `cycles_limit` is the caller's: what a block packs is counted by it.
pub fn signed_transfer(
    key: &cowboy_crypto::PrivateKey,
    chain_id: u64,
    nonce: u64,
    to: cowboy_types::Address,
    cycles_limit: u64,
) -> cowboy_types::Transaction {
    let mut t = cowboy_types::Transaction {
        chain_id,
        nonce,
        instruction: cowboy_types::Instruction::System(cowboy_types::SystemInstruction::Transfer {
            to,
            amount: 1,
        }),
        cycles_limit,
        cells_limit: 1_000,
        max_fee_per_cycle: 1_000_000,
        max_fee_per_cell: 1_000_000,
        max_priority_fee_per_cycle: 1,
        max_priority_fee_per_cell: 0,
        from: key.address(),
        access_list: None,
        metadata: vec![],
        origin: None,
        signature: Default::default(),
        additional_signers: vec![],
    };
    cowboy_crypto::sign_transaction(&mut t, key).expect("sign");
    t
}
