//! Keystores written by `cowboy keys export` decrypt with standard Ethereum tooling (Python
//! `eth-keyfile`, as used by web3.py / eth-account) to the same key. The reverse direction is
//! covered by the checked-in `eth-account` fixtures in `cmd/keys.trycmd`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use assert_cmd::Command;
use std::{io::Write as _, process::Command as StdCommand};

const PASSWORD: &str = "interop password";

fn cowboy(home: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("cowboy").expect("cowboy binary");
    cmd.env("COWBOY_HOME", home)
        .env("COWBOY_PASSWORD", PASSWORD);
    cmd
}

/// Decrypts a keystore with Python's `eth_keyfile`; returns the key as lowercase hex.
fn decrypt_with_eth_keyfile(keystore_json: &str) -> String {
    let script = "import sys, json, eth_keyfile\n\
                  ks = json.loads(sys.stdin.read())\n\
                  print(eth_keyfile.decode_keyfile_json(ks, sys.argv[1].encode()).hex())";
    let mut child = StdCommand::new("python3")
        .args(["-c", script, PASSWORD])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 must be installed");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(keystore_json.as_bytes())
        .expect("write keystore");
    let out = child.wait_with_output().expect("python3 runs");
    assert!(
        out.status.success(),
        "eth_keyfile failed (install it with `pip install eth-keyfile`; .ci/run does): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .trim()
        .to_string()
}

#[test]
fn exported_keystore_decrypts_with_eth_keyfile_to_the_same_key() {
    let home = tempfile::tempdir().unwrap();
    let key = "4646464646464646464646464646464646464646464646464646464646464646";
    cowboy(home.path())
        .args(["keys", "import", "k46"])
        .write_stdin(format!("0x{key}\n"))
        .assert()
        .success();
    let exported = cowboy(home.path())
        .args(["keys", "export", "k46"])
        .output()
        .unwrap();
    assert!(exported.status.success());
    let json = String::from_utf8(exported.stdout).unwrap();
    assert!(
        !json.contains(key),
        "the export must not contain the raw key"
    );
    assert_eq!(decrypt_with_eth_keyfile(&json), key);
}

#[test]
fn generated_key_round_trips_through_eth_keyfile() {
    let home = tempfile::tempdir().unwrap();
    let created = cowboy(home.path())
        .args(["keys", "new", "fresh", "--json"])
        .output()
        .unwrap();
    assert!(created.status.success());
    let entry: serde_json::Value = serde_json::from_slice(&created.stdout).unwrap();

    let raw = cowboy(home.path())
        .args(["keys", "export", "fresh", "--unsafe-private-key", "--json"])
        .output()
        .unwrap();
    let raw: serde_json::Value = serde_json::from_slice(&raw.stdout).unwrap();
    assert_eq!(raw["address"], entry["address"]);

    let exported = cowboy(home.path())
        .args(["keys", "export", "fresh"])
        .output()
        .unwrap();
    let json = String::from_utf8(exported.stdout).unwrap();
    let from_python = decrypt_with_eth_keyfile(&json);
    assert_eq!(
        format!("0x{from_python}"),
        raw["private_key"].as_str().unwrap()
    );
    // The stored keystore uses scrypt, as the keystore format's strongest common KDF.
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed["crypto"]["kdf"], "scrypt");
    assert_eq!(parsed["version"], 3);
}

#[test]
fn keystore_files_are_private() {
    use std::os::unix::fs::PermissionsExt as _;
    let home = tempfile::tempdir().unwrap();
    cowboy(home.path())
        .args(["keys", "new", "p"])
        .assert()
        .success();
    let dir = home.path().join("keystore");
    let file = dir.join("p.json");
    assert_eq!(
        std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
        0o700
    );
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn no_password_and_no_terminal_is_a_clear_error() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("cowboy")
        .unwrap()
        .env("COWBOY_HOME", home.path())
        .env_remove("COWBOY_PASSWORD")
        .args(["keys", "new", "p"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--password-file"), "{stderr}");
    // Nothing was written.
    assert_eq!(
        std::fs::read_dir(home.path().join("keystore"))
            .unwrap()
            .count(),
        0
    );
}
