//! The JSON contract's publication: every schema `cowboy schema` prints is the one in the book
//! (`book/src/reference/schemas/`), and the book's JSON page lists every command that has one.
//! `COWBOY_BLESS=1 cargo test -p cowboy-cli --test schema` rewrites the files from the types.
//! (The devnet tests check the commands' real output against these schemas.)

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use std::path::Path;

fn cowboy(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cowboy"))
        .args(args)
        .output()
        .expect("run");
    assert!(out.status.success(), "cowboy {args:?} failed");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn the_book_publishes_the_schema_of_every_described_output() {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src/reference");
    let listed: serde_json::Value =
        serde_json::from_str(&cowboy(&["--json", "schema"])).expect("list");
    let page = std::fs::read_to_string(book.join("json.md")).expect("json.md");
    let bless = std::env::var_os("COWBOY_BLESS").is_some();
    for o in listed.as_array().expect("a list") {
        let command = o["command"].as_str().expect("command");
        let file = o["book_file"].as_str().expect("file");
        let mut args = vec!["schema"];
        args.extend(command.split(' '));
        let schema = cowboy(&args);
        let schema: serde_json::Value = serde_json::from_str(&schema).expect("a schema");
        jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("`cowboy schema {command}` is not a JSON Schema: {e}"));
        let text = format!("{}\n", serde_json::to_string_pretty(&schema).expect("json"));
        let path = book.join("schemas").join(file);
        if bless {
            std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
            std::fs::write(&path, &text).expect("write");
        }
        let published = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            published == text,
            "book/src/reference/schemas/{file} is not the schema of `cowboy {command} --json` \
             (regenerate: COWBOY_BLESS=1 cargo test -p cowboy-cli --test schema)"
        );
        assert!(
            page.contains(&format!("| `{command}` |")) && page.contains(&format!("schemas/{file}")),
            "book/src/reference/json.md does not list `{command}` with schemas/{file}"
        );
    }
}

/// The schemas constrain what matters: an amount is a decimal string, an address 20 bytes of
/// hex, and a receipt's status one of its names.
#[test]
fn a_schema_refuses_what_its_type_would_never_print() {
    let schema = |command: &[&str]| -> serde_json::Value {
        let mut args = vec!["schema"];
        args.extend_from_slice(command);
        serde_json::from_str(&cowboy(&args)).expect("schema")
    };
    let account = jsonschema::validator_for(&schema(&["balance"])).expect("valid");
    let good = serde_json::json!({
        "address": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        "height": 7,
        "balance": "100000000000",
        "nonce": 0,
        "actor": null
    });
    assert!(account.is_valid(&good));
    let mut number = good.clone();
    number["balance"] = serde_json::json!(100000000000u64);
    assert!(!account.is_valid(&number), "an amount is a string");
    let mut short = good.clone();
    short["address"] = serde_json::json!("0x7099");
    assert!(!account.is_valid(&short), "an address is 20 bytes");
    let status = jsonschema::validator_for(&schema(&["tx", "status"])).expect("valid");
    assert!(status.is_valid(&serde_json::json!({ "status": "pending" })));
    assert!(!status.is_valid(&serde_json::json!({ "status": "maybe" })));
}
