//! Printing results and errors: human text by default, one JSON document with `--json`.

use serde::Serialize;
use std::io::Write as _;

/// `println!` for command output: a reader that went away (`cowboy … | head`) ends the command
/// quietly, as it does any Unix tool, instead of a panic. SIGPIPE itself stays ignored (Rust's
/// default): a node, a faucet or an RPC client writing to a socket its peer closed must get an
/// error, not be killed by the signal.
macro_rules! outln {
    () => {
        $crate::output::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}

/// Writes one line of command output (see [`outln!`]).
pub fn line(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| out.write_all(b"\n"));
    stop_unless_written(written);
}

/// Writes `bytes` as they are to standard output, then flushes.
pub fn raw(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    let written = out.write_all(bytes).and_then(|()| out.flush());
    stop_unless_written(written);
}

fn stop_unless_written(written: std::io::Result<()>) {
    match written {
        Ok(()) => {}
        // The reader is gone: nobody is left to tell.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            std::process::exit(1);
        }
    }
}

/// Prints `value` as compact JSON on stdout.
pub fn json<T: Serialize>(value: &T) {
    match serde_json::to_string(value) {
        Ok(text) => outln!("{text}"),
        Err(e) => eprintln!("error: cannot serialise output: {e}"),
    }
}

/// Prints `value`, which holds a secret, as JSON on stdout, serialised into a buffer that is
/// zeroed afterwards (large enough never to reallocate and leave a copy behind).
pub fn json_secret<T: Serialize>(value: &T) {
    let mut buf = zeroize::Zeroizing::new(Vec::with_capacity(64 * 1024));
    match serde_json::to_writer(&mut *buf, value) {
        Ok(()) => outln!("{}", String::from_utf8_lossy(&buf)),
        Err(e) => eprintln!("error: cannot serialise output: {e}"),
    }
}

/// Prints `value` as indented JSON on stdout.
pub fn json_pretty<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => outln!("{text}"),
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

/// A genesis's execution budget: its block cycle cap as a share of the spec's (see
/// `cowboy_execution::params::BUDGET_SCALE_PPM_PER_SECOND`), as `devnet up` and `node init`
/// print it.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct ExecutionBudget {
    /// The block cycle cap as parts per million of the spec's.
    #[serde(rename = "factor_ppm")]
    pub ppm: u64,
    pub block_cycles: u64,
    pub max_cycles_per_tx: u64,
}

/// The execution budget of `parameters`.
pub fn execution_budget(parameters: &cowboy_execution::Parameters) -> ExecutionBudget {
    ExecutionBudget {
        ppm: parameters.budget_ppm(),
        block_cycles: parameters.block_cycles(),
        max_cycles_per_tx: parameters.lanes.user_cycles,
    }
}

impl ExecutionBudget {
    pub fn line(&self) -> String {
        format!(
            "execution budget: {:.2}% of the spec's cycle caps, sized for the PVM's speed \
             (block cap {} cycles, {} per transaction)",
            self.ppm as f64 / 10_000.0,
            thousands(self.block_cycles),
            thousands(self.max_cycles_per_tx)
        )
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Base units as CBY, exactly (`1.5 CBY`, `0.000000001 CBY`): no float rounding.
pub fn cby(base_units: u64) -> String {
    format!("{} CBY", cowboy_types::units::cby_decimal(base_units))
}

/// Reads an amount for clap: base units or CBY (`cowboy_types::units::parse_amount`).
pub fn parse_amount(text: &str) -> Result<u64, String> {
    cowboy_types::units::parse_amount(text).map_err(|e| e.to_string())
}

/// A percentage (`5`, `2.5`, `100`) as parts per million, for clap.
pub fn parse_percent_ppm(text: &str) -> Result<u64, String> {
    let percent: f64 = text
        .trim_end_matches('%')
        .parse()
        .map_err(|_| format!("{text:?} is not a percentage (e.g. 5 or 2.5)"))?;
    if !(percent > 0.0 && percent <= 100.0) {
        return Err(format!("{text} is not between 0 (excluded) and 100"));
    }
    Ok((percent * 10_000.0).round() as u64)
}

/// Prints build problems (JSON on stdout with `--json`) and returns the error to exit with.
pub fn build_problems(error: cowboy_project::BuildError, json_mode: bool) -> anyhow::Error {
    match error {
        cowboy_project::BuildError::Problems(problems) => {
            if json_mode {
                json(&crate::schema::Built {
                    artifacts: None,
                    problems: problems.clone(),
                    warnings: None,
                });
            } else {
                for p in &problems {
                    eprintln!("{p}");
                }
                let n = problems.len();
                eprintln!(
                    "error: {n} problem{} found; nothing was written",
                    if n == 1 { "" } else { "s" }
                );
            }
            Reported.into()
        }
        other => other.into(),
    }
}
