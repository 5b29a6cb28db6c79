//! The user guide's command examples (`book/src/**/*.md`, ```console blocks) are executed
//! against the real `cowboy` binary, so the book cannot drift from the behaviour. Each chapter
//! runs with its own empty `COWBOY_HOME`.

mod support;

/// Chapters start devnets on fixed ports: one chapter at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs a chapter from a scratch copy (the chapter and its `NAME.in` directory), so commands
/// that write files (`cowboy new`, `cowboy build`) never touch the source tree.
fn chapter(path: &str) {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let home = tempfile::tempdir().expect("temporary COWBOY_HOME");
    let scratch = tempfile::tempdir().expect("scratch");
    let source = std::path::Path::new(path);
    let name = source.file_name().expect("file name");
    let copy = scratch.path().join(name);
    std::fs::copy(source, &copy).expect("copy chapter");
    let inputs = source.with_extension("in");
    if inputs.is_dir() {
        support::copy_tree(&inputs, &copy.with_extension("in"));
    }
    // Whatever happens, stop the devnets the chapter started.
    let _devnets = StopDevnets(home.path().to_path_buf());
    trycmd::TestCases::new()
        .register_bin("cowboy", trycmd::cargo::cargo_bin("cowboy"))
        .env("COWBOY_HOME", home.path().display().to_string())
        .env("NO_COLOR", "1")
        .case(copy)
        .run();
}

struct StopDevnets(std::path::PathBuf);

impl Drop for StopDevnets {
    fn drop(&mut self) {
        let devnets = self.0.join("devnets");
        for entry in std::fs::read_dir(devnets).into_iter().flatten().flatten() {
            let _ = std::process::Command::new(trycmd::cargo::cargo_bin("cowboy"))
                .args(["devnet", "reset", "--name"])
                .arg(entry.file_name())
                .env("COWBOY_HOME", &self.0)
                .output();
        }
    }
}

#[test]
fn quickstart() {
    chapter("../book/src/quickstart.md");
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
fn devnet_guide() {
    chapter("../book/src/guide/devnet.md");
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
            "../book/src/pvm.md",
            "../book/src/quickstart.md",
            "../book/src/reference/cli.md",
        ]
    );
}
