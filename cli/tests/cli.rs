//! CLI transcripts: every `.trycmd` file under `tests/cmd` (and the user guide's examples) is run
//! against the real `cowboy` binary and its output compared, so the documented behaviour and
//! the error messages cannot drift.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

#[test]
fn transcripts() {
    let home = tempfile::tempdir().expect("temporary COWBOY_HOME");
    trycmd::TestCases::new()
        .register_bin("cowboy", trycmd::cargo::cargo_bin("cowboy"))
        .env("COWBOY_HOME", home.path().display().to_string())
        .env("NO_COLOR", "1")
        .case("tests/cmd/*.trycmd");
}
