//! The JSON contract's publication: every schema `cowboy schema` prints is the one in the book
//! (`book/src/reference/schemas/`), and the book's JSON page lists every command that has one.
//! `COWBOY_BLESS=1 cargo test -p cowboy-cli --test schema` rewrites the files from the types.
//! (The devnet tests check the commands' real output against these schemas.)

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

use std::path::{Path, PathBuf};

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

/// Commands whose `--json` output is not one of the CLI's own documents, by design.
const UNDESCRIBED: &[(&str, &str)] = &[
    ("rpc", "prints the node's raw answer"),
    ("schema", "prints the schemas themselves"),
];

/// Every `--json` output the book and the transcript tests show validates against its
/// command's published schema. The transcripts are exact snapshots of real output (trycmd and
/// `tests/book.rs` compare them), so this checks what the commands print, for commands whose
/// tests run without a devnet (`run`, `keys`, `sign`, `tx decode`, …).
#[test]
fn every_json_output_the_book_and_the_transcripts_show_validates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("tests"), "trycmd", &mut files);
    collect(&root.join("../book/src"), "md", &mut files);
    let mut checked = 0;
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        let markdown = file.extension().is_some_and(|e| e == "md");
        for (line, command, output) in json_examples(&text, markdown) {
            let at = format!("{}:{line}", file.display());
            let args = shell_words(&command);
            let args: Vec<&str> = args
                .iter()
                .map(String::as_str)
                .filter(|a| *a != "--json")
                .collect();
            if UNDESCRIBED.iter().any(|(c, _)| args.first() == Some(c)) {
                continue;
            }
            if support::published_schema(&args).is_none() {
                problems.push(format!("{at}: `cowboy {command}` has no published schema"));
                continue;
            }
            if output.contains("[..]") || output.contains("...") {
                problems.push(format!(
                    "{at}: `cowboy {command}`'s output elides text ([..] or ...), so it cannot \
                     be checked; show it whole"
                ));
                continue;
            }
            // One document, or one per line (streamed output). A transcript shows stderr too:
            // its lines (`error: …`, `signature: INVALID …`) are not documents.
            let documents: Vec<serde_json::Value> = match serde_json::from_str(&output) {
                Ok(v) => vec![v],
                Err(_) => match output
                    .lines()
                    .filter(|l| l.starts_with('{') || l.starts_with('['))
                    .map(serde_json::from_str)
                    .collect::<Result<Vec<_>, _>>()
                {
                    Ok(v) if !v.is_empty() => v,
                    Ok(_) => {
                        problems.push(format!("{at}: `cowboy {command}` shows no JSON"));
                        continue;
                    }
                    Err(e) => {
                        problems.push(format!("{at}: `cowboy {command}` shows bad JSON: {e}"));
                        continue;
                    }
                },
            };
            for d in &documents {
                support::check_published_schema(&args, d);
                checked += 1;
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        checked >= 10,
        "only {checked} JSON outputs found: is the scan broken?"
    );
    eprintln!("{checked} JSON outputs validated");
}

fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// `(line, command after "cowboy ", stdout)` of each `$ cowboy … --json` in a transcript (in a
/// markdown file, in its ```console blocks). A `? status` line is not output.
fn json_examples(text: &str, markdown: bool) -> Vec<(usize, String, String)> {
    let mut found = Vec::new();
    let mut in_block = !markdown;
    let mut current: Option<(usize, String, Vec<&str>)> = None;
    let finish = |current: &mut Option<(usize, String, Vec<&str>)>,
                  found: &mut Vec<(usize, String, String)>| {
        if let Some((line, command, output)) = current.take() {
            let output: Vec<&str> = output
                .into_iter()
                .filter(|l| !l.starts_with("? "))
                .collect();
            found.push((line, command, output.join("\n").trim().to_owned()));
        }
    };
    for (n, line) in text.lines().enumerate() {
        if markdown && line.starts_with("```") {
            finish(&mut current, &mut found);
            in_block = line.trim() == "```console";
            continue;
        }
        if !in_block {
            continue;
        }
        if line.starts_with("$ ") || (!markdown && line.starts_with("```")) {
            finish(&mut current, &mut found);
            if let Some(command) = line.strip_prefix("$ cowboy ")
                && command.split_whitespace().any(|w| w == "--json")
                && !command.contains('|')
            {
                current = Some((n + 1, command.to_owned(), Vec::new()));
            }
            continue;
        }
        if let Some((_, _, output)) = &mut current {
            output.push(line);
        }
    }
    finish(&mut current, &mut found);
    found
}

/// The words of a command line, with single and double quotes removed (enough for the
/// transcripts' commands).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}
