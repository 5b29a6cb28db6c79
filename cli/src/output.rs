//! Printing results and errors: human text by default, one JSON document with `--json`.

use serde::Serialize;

/// Prints `value` as compact JSON on stdout.
pub fn json<T: Serialize>(value: &T) {
    match serde_json::to_string(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("error: cannot serialise output: {e}"),
    }
}

/// Prints `value` as indented JSON on stdout.
pub fn json_pretty<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("error: cannot serialise output: {e}"),
    }
}

/// Prints an error with its chain of causes on stderr (as `{"error": …}` in JSON mode).
pub fn print_error(error: &anyhow::Error, json_mode: bool) {
    if error.downcast_ref::<Reported>().is_some() {
        return;
    }
    let causes: Vec<String> = error.chain().map(|c| c.to_string()).collect();
    if json_mode {
        let value = serde_json::json!({ "error": { "message": causes.join(": ") } });
        eprintln!("{value}");
    } else {
        let mut text = format!("error: {}", causes[0]);
        for cause in &causes[1..] {
            text.push_str(&format!("\n  caused by: {cause}"));
        }
        eprintln!("{text}");
    }
}

/// An error whose details were already printed (e.g. validation diagnostics, a failed call's
/// report): the command only needs to exit non-zero.
#[derive(Debug)]
pub struct Reported;

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("reported")
    }
}

impl std::error::Error for Reported {}
