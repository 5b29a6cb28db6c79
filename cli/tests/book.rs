//! The user guide's command examples (`book/src/**/*.md`, ```console blocks) are executed
//! against the real `cowboy` binary, so the book cannot drift from the behaviour. Each chapter
//! runs with its own empty `COWBOY_HOME`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

mod support;

/// Chapters start devnets: one chapter at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The default devnet ports (`devnet up` without port flags), the variable that moves each,
/// and how many ports from it a chapter may show.
const DEFAULT_PORTS: [(&str, u16, u16); 3] = [
    ("COWBOY_DEVNET_RPC_PORT", cowboy_devnet::DEFAULT_RPC_PORT, 4),
    ("COWBOY_DEVNET_P2P_PORT", cowboy_devnet::DEFAULT_P2P_PORT, 4),
    (
        "COWBOY_DEVNET_FAUCET_PORT",
        cowboy_devnet::DEFAULT_FAUCET_PORT,
        1,
    ),
];

/// Runs a chapter from a scratch copy (the chapter and its `NAME.in` directory), so commands
/// that write files (`cowboy new`, `cowboy build`) never touch the source tree.
fn chapter(path: &str) {
    run_chapter(path, None);
}

/// Like [`chapter`], for a chapter that starts devnets. The ports the chapter shows — the
/// defaults and the `(base, count)` blocks in `shown` — are moved to free ones: the scratch
/// copy has them replaced, and `COWBOY_DEVNET_*_PORT` point the defaults there. So a chapter
/// never fails because another program on a shared machine holds 8545, while readers see the
/// ports they will get.
fn devnet_chapter(path: &str, shown: &[(u16, u16)]) {
    run_chapter(path, Some(shown));
}

fn run_chapter(path: &str, devnet_ports: Option<&[(u16, u16)]>) {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let home = tempfile::tempdir().expect("temporary COWBOY_HOME");
    let scratch = tempfile::tempdir().expect("scratch");
    let source = std::path::Path::new(path);
    let name = source.file_name().expect("file name");
    let copy = scratch.path().join(name);
    let moves: Vec<(u16, u16, u16)> = devnet_ports
        .map(|shown| {
            DEFAULT_PORTS
                .iter()
                .map(|&(_, base, count)| (base, count))
                .chain(shown.iter().copied())
                .map(|(base, count)| (base, count, support::free_base(count)))
                .collect()
        })
        .unwrap_or_default();
    let text = std::fs::read_to_string(source).expect("chapter");
    std::fs::write(&copy, support::move_ports(&text, &moves)).expect("copy chapter");
    let inputs = source.with_extension("in");
    if inputs.is_dir() {
        support::copy_tree(&inputs, &copy.with_extension("in"));
    }
    // Whatever happens, stop the devnets the chapter started (and show their logs if it failed).
    let _devnets = StopDevnets(home.path().to_path_buf());
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("cowboy", trycmd::cargo::cargo_bin("cowboy"))
        .env("COWBOY_HOME", home.path().display().to_string())
        .env("NO_COLOR", "1");
    // `moves` starts with the defaults' blocks (empty for a chapter without devnets).
    for ((var, _, _), (_, _, port)) in DEFAULT_PORTS.iter().zip(&moves) {
        cases.env(*var, port.to_string());
    }
    cases.case(copy).run();
}

struct StopDevnets(std::path::PathBuf);

impl Drop for StopDevnets {
    fn drop(&mut self) {
        let devnets = self.0.join("devnets");
        for entry in std::fs::read_dir(devnets).into_iter().flatten().flatten() {
            if std::thread::panicking() {
                print_logs(&entry.path());
            }
            let _ = std::process::Command::new(trycmd::cargo::cargo_bin("cowboy"))
                .args(["devnet", "reset", "--name"])
                .arg(entry.file_name())
                .env("COWBOY_HOME", &self.0)
                .output();
        }
    }
}

/// The end of every log of a devnet, into the failed test's output (where CI shows it).
fn print_logs(devnet: &std::path::Path) {
    for log in std::fs::read_dir(devnet).into_iter().flatten().flatten() {
        let path = log.path();
        if path.extension().is_some_and(|e| e == "log") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            eprintln!("==== {} (last 40 lines)", path.display());
            for line in &lines[lines.len().saturating_sub(40)..] {
                eprintln!("{line}");
            }
        }
    }
}

#[test]
fn ports_in_chapters_are_moved_as_whole_numbers() {
    let moves = [(8545, 4, 20000), (8645, 1, 21000)];
    assert_eq!(
        support::move_ports("127.0.0.1:8545 8548 8549 18545 85450 8645\n", &moves),
        "127.0.0.1:20000 20003 8549 18545 85450 21000\n"
    );
}

#[test]
fn quickstart() {
    devnet_chapter("../book/src/quickstart.md", &[]);
}

#[test]
fn keys_guide() {
    chapter("../book/src/guide/keys.md");
}

#[test]
fn signing_guide() {
    chapter("../book/src/guide/signing.md");
}

#[test]
fn pvm_chapter() {
    chapter("../book/src/pvm.md");
}

#[test]
fn concepts() {
    chapter("../book/src/concepts.md");
}

#[test]
fn projects_guide() {
    chapter("../book/src/guide/projects.md");
}

#[test]
fn testing_guide() {
    chapter("../book/src/guide/testing.md");
}

#[test]
fn devnet_guide() {
    devnet_chapter(
        "../book/src/guide/devnet.md",
        &[
            (28545, 4),
            (28300, 4),
            (28645, 1),
            (28555, 1),
            (28310, 1),
            (28655, 1),
        ],
    );
}

#[test]
fn cli_reference() {
    chapter("../book/src/reference/cli.md");
}

#[test]
fn every_chapter_is_covered() {
    // A new chapter with commands must be added above.
    let mut chapters = Vec::new();
    let mut stack = vec![std::path::PathBuf::from("../book/src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("book/src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md")
                && std::fs::read_to_string(&path)
                    .expect("chapter")
                    .contains("```console")
            {
                chapters.push(path.display().to_string());
            }
        }
    }
    chapters.sort();
    assert_eq!(
        chapters,
        [
            "../book/src/concepts.md",
            "../book/src/guide/devnet.md",
            "../book/src/guide/keys.md",
            "../book/src/guide/projects.md",
            "../book/src/guide/signing.md",
            "../book/src/guide/testing.md",
            "../book/src/pvm.md",
            "../book/src/quickstart.md",
            "../book/src/reference/cli.md",
        ]
    );
}
