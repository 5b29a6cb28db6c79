//! The user guide's command examples (`book/src/**/*.md`, ```console blocks) are executed
//! against the real `cowboy` binary, so the book cannot drift from the behaviour. Each chapter
//! runs with its own empty `COWBOY_HOME`.

fn chapter(path: &str) {
    let home = tempfile::tempdir().expect("temporary COWBOY_HOME");
    trycmd::TestCases::new()
        .register_bin("cowboy", trycmd::cargo::cargo_bin("cowboy"))
        .env("COWBOY_HOME", home.path().display().to_string())
        .env("NO_COLOR", "1")
        .case(path)
        .run();
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
            "../book/src/guide/keys.md",
            "../book/src/guide/signing.md",
            "../book/src/pvm.md",
            "../book/src/quickstart.md",
            "../book/src/reference/cli.md",
        ]
    );
}
