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
