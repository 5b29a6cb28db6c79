//! Transcripts of the project workflow, flag-driven as a script would run it: `cowboy new`
//! from every template, `cowboy test` and `cowboy build` on the result, `build` errors with
//! file:line:col, rule and fix (and nothing written), and the examples' own tests.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

use snapbox::{cmd::Command, str};
use std::path::Path;

fn cowboy(cwd: &Path, home: &Path) -> Command {
    Command::new(snapbox::cmd::cargo_bin!("cowboy"))
        .current_dir(cwd)
        .env("COWBOY_HOME", home)
        .env("NO_COLOR", "1")
}

#[test]
fn new_counter_then_test_and_build() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    cowboy(dir.path(), &home)
        .args(["new", "demo", "--template", "counter", "--yes"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
created demo from template counter (9 files):
  .gitignore
  README.md
  cowboy.toml
  pyproject.toml
  src/counter.py
  tests/test_counter.py
  typings/cowboy_sdk.pyi
  typings/cowboy_test.pyi
  typings/pvm_host.pyi

next:
  cd demo
  cowboy test
  cowboy build

"#]]);
    let project = dir.path().join("demo");
    let manifest = std::fs::read_to_string(project.join("cowboy.toml")).expect("manifest");
    assert!(manifest.contains("name = \"demo\""), "{manifest}");
    cowboy(&project, &home)
        .arg("test")
        .assert()
        .success()
        .stdout_eq(str![[r#"
tests/test_counter.py
  ok    test_starts_where_it_is_told ([..])
  ok    test_increment_returns_the_new_count ([..])
  ok    test_increment_emits_an_event ([..])
  ok    test_increment_by_zero_fails ([..])
  ok    test_the_count_is_in_storage ([..])
  ok    test_anyone_can_increment ([..])
  ok    test_calls_are_metered_and_paid ([..])
  ok    test_revert_goes_back_to_a_snapshot ([..])
  ok    test_two_counters_are_independent ([..])
  ok    test_the_count_is_the_sum_of_the_increments ([..])

10 passed, 0 failed

"#]]);
    cowboy(&project, &home)
        .arg("build")
        .assert()
        .success()
        .stdout_eq(str![[r#"
built counter → build/counter.json (class Counter, handlers increment, get, [..] bytes, code hash 0x[..], PVM version 1+)

"#]]);
    let artifact: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project.join("build/counter.json")).expect("artifact"),
    )
    .expect("json");
    assert_eq!(
        artifact["handlers"],
        serde_json::json!(["increment", "get"])
    );
    // A wrong expectation shows the assertion at its line; exit 1.
    let tests = project.join("tests/test_counter.py");
    let text = std::fs::read_to_string(&tests).expect("tests");
    std::fs::write(
        &tests,
        text.replace(
            "assert counter.increment(5) == 6",
            "assert counter.increment(5) == 7",
        ),
    )
    .expect("edit");
    cowboy(&project, &home)
        .args(["test", "-k", "new_count"])
        .assert()
        .failure()
        .stdout_eq(str![[r#"
tests/test_counter.py
  FAIL  test_increment_returns_the_new_count ([..])

failures:

―― tests/test_counter.py::test_increment_returns_the_new_count ――
Traceback (most recent call last):
  File "tests/test_counter.py", line 14, in test_increment_returns_the_new_count
    assert counter.increment(5) == 7
AssertionError

0 passed, 1 failed

"#]]);
    std::fs::write(project.join("tests/bad.toml"), "[[steps]]\ncal = \"get\"\n").expect("write");
    cowboy(&project, &home)
        .args(["test", "bad"])
        .assert()
        .failure()
        .stdout_eq(str![[r#"
FAIL  tests/bad.toml: TOML parse error at line 2, column 1
  |
2 | cal = "get"
  | ^^^
unknown field `cal`, expected one of `call`, `to`, `deploy`, `advance`, `args`, `caller`, `value`, `returns`, `returns_none`, `fails`, `events`, `messages`, `timers`, `ran`

0 passed, 1 failed

"#]]);
    // A second project of the same name is refused, not merged.
    cowboy(dir.path(), &home)
        .args(["new", "demo", "--yes"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: demo already exists and is not empty; choose another name or --path

"#]]);
}

#[test]
fn every_template_passes_its_own_tests() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    for (template, expected) in [
        (
            "interval",
            str![[r#"
tests/test_job.py
  ok    test_deploying_sets_one_timer ([..])
  ok    test_only_the_timer_ticks ([..])
  ok    test_the_interval_fires_every_n_blocks ([..])
  ok    test_firings_are_paid_from_the_actors_balance ([..])
  ok    test_only_the_owner_stops_it ([..])
  ok    test_every_must_be_at_least_one_block ([..])
  ok    test_a_job_without_funds_is_refused_instead_of_never_firing ([..])

7 passed, 0 failed

"#]],
        ),
        (
            "pair",
            str![[r#"
tests/test_pair.py
  ok    test_a_question_is_answered_in_the_same_transaction ([..])
  ok    test_an_unanswered_question_times_out ([..])
  ok    test_only_the_asked_actor_may_reply ([..])
  ok    test_the_responder_answers_whoever_asks ([..])
  ok    test_the_answer_is_the_question_in_capitals ([..])

5 passed, 0 failed

"#]],
        ),
    ] {
        let name = format!("my-{template}");
        cowboy(dir.path(), &home)
            .args(["new", &name, "-t", template, "-y", "--json"])
            .assert()
            .success();
        cowboy(dir.path(), &home)
            .args(["test", "--path", &name])
            .assert()
            .success()
            .stdout_eq(expected);
        cowboy(dir.path(), &home)
            .args(["build", "--path", &name])
            .assert()
            .success();
    }
    cowboy(dir.path(), &home)
        .args(["new", "x", "--template", "nope", "--yes"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: unknown template "nope"; choose one of: counter, interval, pair

"#]]);
    cowboy(dir.path(), &home)
        .args(["new", "9lives", "--yes"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: invalid project name "9lives": start with a letter, then letters, digits, '-' or '_' (at most 64)

"#]]);
}

/// Copies a fixture project so a failed build could not touch the source tree.
fn fixture(name: &str, into: &Path) -> std::path::PathBuf {
    let dst = into.join(name);
    support::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/project")
            .join(name),
        &dst,
    );
    dst
}

#[test]
fn build_errors_name_file_line_column_rule_and_fix() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let rules = fixture("rules", dir.path());
    cowboy(&rules, &home)
        .arg("build")
        .assert()
        .failure()
        .stdout_eq(str![""])
        .stderr_eq(str![[r#"
src/bad.py:1:8: import-not-allowed: module `os` is not available in the PVM
  hint: import only: abc, base64, bisect, collections, collections.abc, copy, cowboy_sdk, dataclasses, decimal, enum, fractions, functools, hashlib, heapq, hmac, itertools, json, math, operator, pvm_host, re, string, struct, typing
src/bad.py:8:16: forbidden-builtin: `eval` is not available in the PVM
  hint: dynamic code execution is not allowed
error: 2 problems found; nothing was written

"#]]);
    assert!(
        !rules.join("build").exists(),
        "a failed build writes nothing"
    );

    let manifest = fixture("manifest", dir.path());
    cowboy(&manifest, &home)
        .arg("build")
        .assert()
        .failure()
        .stderr_eq(str![[r#"
cowboy.toml:5:8: handlers: actor mismatch declares handler "missing", but class Mismatch in src/mismatch.py has no public method "missing"
  hint: add `def missing(self, ...)` to the class, or remove "missing" from handlers
src/mismatch.py:9:9: handlers: public method "extra" of class Mismatch is not among actor mismatch's handlers in cowboy.toml
  hint: add "extra" to handlers in cowboy.toml, or rename it `_extra` to keep it private
cowboy.toml:5:8: entitlements: actor mismatch: unknown entitlement "teleport"
  hint: use one of http.fetch, llm.infer, mcp.invoke, container.run, volume.mount, bridge.asset, bridge.subscribe_event
error: 3 problems found; nothing was written

"#]]);
    cowboy(&manifest, &home)
        .args(["build", "--json"])
        .assert()
        .failure()
        .stdout_eq(str![[r#"
{"artifacts":null,"problems":[{"file":"cowboy.toml","line":5,"column":8,"rule":"handlers",[..]},{"file":"src/mismatch.py","line":9,"column":9,"rule":"handlers",[..]},{"file":"cowboy.toml","line":5,"column":8,"rule":"entitlements",[..]}]}

"#]]);
    cowboy(dir.path(), &home)
        .arg("build")
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: no cowboy.toml in [..] or any parent directory; run this inside a project (create one with `cowboy new NAME`)

"#]]);
}

#[test]
fn build_warns_about_names_earlier_pvm_versions_refuse() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let newer = fixture("newer", dir.path());
    cowboy(&newer, &home)
        .arg("build")
        .assert()
        .success()
        .stdout_eq(str![[r#"
built queue → build/queue.json (class Queue, handlers push, pop, [..] bytes, code hash 0x[..], PVM version 2+)

"#]])
        .stderr_eq(str![[r#"
src/queue.py:3:8: warning: import-not-allowed: module `heapq` is not available in PVM version 1 (allowed since version 2); chains still on PVM version 1 refuse to deploy this actor
  hint: deploy to a chain on PVM version 2 or later, or: import only: abc, collections, collections.abc, cowboy_sdk, dataclasses, decimal, enum, functools, hashlib, itertools, json, math, pvm_host, re, struct, typing
src/queue.py:22:59: warning: dunder-attribute: attribute `__cause__` is not accessible in PVM version 1 (allowed since version 2); chains still on PVM version 1 refuse to deploy this actor
  hint: deploy to a chain on PVM version 2 or later, or: introspection of runtime internals is not allowed; allowed dunder attributes: __init__, __name__, __qualname__, __doc__, __class__

"#]]);
    let artifact: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(newer.join("build/queue.json")).expect("artifact"),
    )
    .expect("json");
    assert_eq!(artifact["pvm_version"], 2);
    cowboy(&newer, &home)
        .args(["build", "--json"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
{"artifacts":[{[..]"pvm_version":2}],"problems":[],"warnings":[{"file":"src/queue.py","line":3,"column":8,"rule":"import-not-allowed",[..]},{"file":"src/queue.py","line":22,"column":59,"rule":"dunder-attribute",[..]}]}

"#]]);
}

#[test]
fn examples_pass_their_tests_and_build() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    for name in ["counter", "heartbeat", "ping-pong"] {
        // Built from a copy: the checkout stays clean.
        let copy = support::example(name, dir.path());
        cowboy(&copy, &home)
            .arg("test")
            .assert()
            .success()
            .stdout_eq(str![[r#"
...
[..] passed, 0 failed

"#]]);
        cowboy(&copy, &home).arg("build").assert().success();
    }
}

#[test]
fn config_profiles_and_completions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    cowboy(dir.path(), &home)
        .args(["config", "show"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
no profiles in [..]config.toml (`cowboy devnet up` writes one)

"#]]);
    for (key, value) in [
        ("rpc_url", "http://127.0.0.1:9"),
        ("chain_id", "7"),
        ("account", "dev:1"),
    ] {
        cowboy(dir.path(), &home)
            .args(["config", "set", "staging", key, value])
            .assert()
            .success();
    }
    cowboy(dir.path(), &home)
        .args(["config", "show"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
* staging
    rpc_url    http://127.0.0.1:9
    account    dev:1
    chain_id   7
    faucet_url -

"#]]);
    // The profile supplies the URL; a flag or the environment overrides it.
    cowboy(dir.path(), &home)
        .args(["balance", "0x2222222222222222222222222222222222222222"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: cannot reach a node at http://127.0.0.1:9: [..]

"#]]);
    cowboy(dir.path(), &home)
        .args(["balance", "0x2222222222222222222222222222222222222222"])
        .env("COWBOY_RPC_URL", "http://127.0.0.1:10")
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: cannot reach a node at http://127.0.0.1:10: [..]

"#]]);
    cowboy(dir.path(), &home)
        .args(["--profile", "prod", "balance", "0x2222222222222222222222222222222222222222"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: no profile "prod" in the config (profiles: staging); create it with `cowboy config set prod rpc_url URL`

"#]]);
    cowboy(dir.path(), &home)
        .args(["config", "set", "staging", "colour", "blue"])
        .assert()
        .failure()
        .stderr_eq(str![[r#"
error: unknown profile key "colour"; use rpc_url, account, chain_id or faucet_url

"#]]);
    cowboy(dir.path(), &home)
        .args(["completions", "bash"])
        .assert()
        .success()
        .stdout_eq(str![[r#"

_clap_complete_cowboy() {
...
"#]]);

    // What the shell gets at a Tab (the fish protocol: one candidate a line, then its help):
    // key names from the keystore and the dev accounts for --account, the project's actors for
    // --actor, stored keys for `keys show`.
    let key = dir.path().join("key.hex");
    std::fs::write(
        &key,
        "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    )
    .expect("key");
    cowboy(dir.path(), &home)
        .args(["keys", "import", "alice", "--private-key-file"])
        .arg(&key)
        .env("COWBOY_PASSWORD", "pw")
        .assert()
        .success();
    let complete = |cwd: &Path, words: &[&str]| -> String {
        let out = cowboy(cwd, &home)
            .env("COMPLETE", "fish")
            .args(["--", "cowboy"])
            .args(words)
            .output()
            .expect("complete");
        assert!(out.status.success());
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let accounts = complete(dir.path(), &["call", "0xA", "get", "--account", ""]);
    assert!(
        accounts.starts_with("alice\tkeystore key\ndev:0\tdevnet dev account\n"),
        "{accounts}"
    );
    assert_eq!(complete(dir.path(), &["keys", "show", "al"]), "alice\n");
    cowboy(dir.path(), &home)
        .args(["new", "chat", "--template", "pair", "--yes"])
        .assert()
        .success();
    let actors = complete(&dir.path().join("chat"), &["deploy", "--actor", ""]);
    let names: Vec<&str> = actors
        .lines()
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    assert_eq!(names, ["requester", "responder"], "{actors}");
}

/// `cowboy test` on Python tests: passing, a failed assertion (with what the test printed), an
/// actor's exception (with the actor's traceback in its source file), a property test shrunk
/// to its falsifying example, and one that holds; exit 1. Then `--json`, `-k`, `-x` and
/// `--gas-report`.
#[test]
fn python_tests_report_like_pytest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let project = fixture("pytests", dir.path());
    cowboy(&project, &home)
        .arg("test")
        .assert()
        .code(1)
        .stdout_eq(str![[r#"
tests/test_mixed.py
  ok    test_passes ([..])
  FAIL  test_wrong_assertion ([..])
  FAIL  test_actor_exception ([..])
  FAIL  test_property_shrinks ([..])
  ok    test_property_holds ([..])

failures:

―― tests/test_mixed.py::test_wrong_assertion ――
Traceback (most recent call last):
  File "tests/test_mixed.py", line 15, in test_wrong_assertion
    assert c.query("get") == 5, "the count is off"
AssertionError: the count is off
captured output:
  incremented to 2

―― tests/test_mixed.py::test_actor_exception ――
Traceback (most recent call last):
  File "tests/test_mixed.py", line 19, in test_actor_exception
    counter().increment(0)
CallFailed: counter.increment failed: Exception: ValueError: increment by at least 1
Traceback (most recent call last):
  File "src/counter.py", line 14, in increment
    raise ValueError("increment by at least 1")
ValueError: increment by at least 1

―― tests/test_mixed.py::test_property_shrinks ――
Traceback (most recent call last):
  File "tests/test_mixed.py", line 26, in test_property_shrinks
    assert c.query("get") <= 100
AssertionError

The above exception was the direct cause of the following exception:

AssertionError: Falsifying example: test_property_shrinks(n=100)

2 passed, 3 failed

"#]]);
    let out = cowboy(&project, &home)
        .args(["test", "--json"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(
        (report["passed"].as_u64(), report["failed"].as_u64()),
        (Some(2), Some(3))
    );
    let tests = report["tests"].as_array().expect("tests");
    let outcomes: Vec<(&str, &str)> = tests
        .iter()
        .map(|t| {
            (
                t["name"].as_str().expect("name"),
                t["outcome"].as_str().expect("outcome"),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("test_passes", "passed"),
            ("test_wrong_assertion", "failed"),
            ("test_actor_exception", "failed"),
            ("test_property_shrinks", "failed"),
            ("test_property_holds", "passed"),
        ]
    );
    assert_eq!(tests[1]["message"], "AssertionError: the count is off");
    assert_eq!(tests[1]["output"], "incremented to 2\n");
    assert!(tests[0]["duration_ms"].as_f64().is_some());
    assert_eq!(
        tests[3]["message"],
        "AssertionError: Falsifying example: test_property_shrinks(n=100)"
    );
    // -x stops at the first failure; -k picks by file::name.
    cowboy(&project, &home)
        .args(["test", "-x"])
        .assert()
        .code(1)
        .stdout_eq(str![[r#"
tests/test_mixed.py
  ok    test_passes ([..])
  FAIL  test_wrong_assertion ([..])
...
1 passed, 1 failed

"#]]);
    cowboy(&project, &home)
        .args(["test", "-k", "holds", "--gas-report"])
        .assert()
        .success()
        .stdout_eq(str![[r#"
tests/test_mixed.py
  ok    test_property_holds ([..])

handler                   calls   cycles min       median          max  cells min     median        max
counter.__init__              5 [..]
counter.increment           [..]

1 passed, 0 failed

"#]]);
}

/// `cowboy test --watch`: one save is one re-run, headed by what changed. The runs are
/// numbered, so a save that re-ran twice would show in the next header.
#[test]
fn test_watch_reruns_once_per_save() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    cowboy(dir.path(), &home)
        .args(["new", "watched", "--yes"])
        .assert()
        .success();
    let project = dir.path().join("watched");
    let mut child = std::process::Command::new(snapbox::cmd::cargo_bin!("cowboy"))
        .args(["test", "--watch"])
        .current_dir(&project)
        .env("COWBOY_HOME", &home)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("cowboy test --watch");
    let stdout = child.stdout.take().expect("stdout");
    let lines = support::lines(stdout);
    // The output up to and including the next closing line (a bound, not a wait: a run
    // takes about a second).
    let run = || -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = lines
                .recv_timeout(std::time::Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no closing line after: {out:#?}"));
            let done = line.contains(" passed, ");
            out.push(line);
            if done {
                return out;
            }
        }
    };
    let first = run();
    assert_eq!(first[0], "── run 1 ──", "{first:#?}");
    assert_eq!(
        first.last().map(String::as_str),
        Some("10 passed, 0 failed")
    );
    let append = |file: &str, text: &str| {
        let path = project.join(file);
        let mut source = std::fs::read_to_string(&path).expect("read");
        source.push_str(text);
        std::fs::write(&path, source).expect("write");
    };
    append("src/counter.py", "\n# a comment, saved\n");
    let second = run();
    assert_eq!(
        second[0], "── run 2: src/counter.py changed ──",
        "{second:#?}"
    );
    assert_eq!(
        second.last().map(String::as_str),
        Some("10 passed, 0 failed")
    );
    append(
        "tests/test_counter.py",
        "\n\ndef test_one_more():\n    assert True\n",
    );
    let third = run();
    assert_eq!(
        third[0], "── run 3: tests/test_counter.py changed ──",
        "{third:#?}"
    );
    assert_eq!(
        third.last().map(String::as_str),
        Some("11 passed, 0 failed")
    );
    let _ = child.kill();
    let _ = child.wait();
}
