//! Node and faucet processes: spawned detached (their own process group, output to a log
//! file) so they outlive `cowboy devnet up --detach`; found again by pid, and confirmed to be
//! ours by their command line so a recycled pid is never signalled.

use std::{
    fs::OpenOptions,
    io::{Read as _, Seek as _, SeekFrom},
    os::unix::process::CommandExt as _,
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

/// The variables that choose, for a `cowboy` command, its signer, node and profile. The user's
/// (`export COWBOY_ACCOUNT=alice`) must not reach the devnet's own processes, which are told
/// everything by their arguments and `env`: an inherited account next to the faucet's key made
/// the faucet refuse to start ("both --account and --private-key were given").
const USER_SELECTIONS: [&str; 7] = [
    "COWBOY_ACCOUNT",
    "COWBOY_PRIVATE_KEY",
    "COWBOY_PASSWORD",
    "COWBOY_RPC_URL",
    "COWBOY_FAUCET_URL",
    "COWBOY_PROFILE",
    "COWBOY_RUNNER_CONFIG",
];

/// Starts `binary args…` with `env` (and none of the user's [`USER_SELECTIONS`]), appending its
/// output to `log`.
pub fn spawn(
    binary: &Path,
    args: &[String],
    env: &[(&str, String)],
    log: &Path,
) -> std::io::Result<Child> {
    let out = OpenOptions::new().create(true).append(true).open(log)?;
    let err = out.try_clone()?;
    let mut command = Command::new(binary);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        // Own process group: a Ctrl-C in the terminal that ran `devnet up` does not reach the
        // nodes; `devnet down` (or the foreground `up`'s own handler) stops them.
        .process_group(0);
    for k in USER_SELECTIONS {
        command.env_remove(k);
    }
    for (k, v) in env {
        command.env(k, v);
    }
    command.spawn()
}

/// Whether `pid` is alive and one of its arguments is exactly `marker` (the node home or the
/// faucet's log path).
pub fn alive(pid: u32, marker: &str) -> bool {
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        // A zombie has an empty command line: it counts as gone.
        return std::fs::read(proc.join(pid.to_string()).join("cmdline"))
            .map(|c| c.split(|b| *b == 0).any(|arg| arg == marker.as_bytes()))
            .unwrap_or(false);
    }
    // No procfs: fall back to "some process has this pid".
    // SAFETY: kill with signal 0 only checks for existence and permission.
    unsafe { libc::kill(pid as libc::pid_t, 0) == 0 }
}

/// Asks `pid` to stop (SIGTERM), waits up to `grace`, then kills it.
pub fn terminate(pid: u32, marker: &str, grace: Duration) {
    terminate_all(&[(pid, marker.to_string())], grace);
}

/// Asks every `(pid, marker)` process to stop at once (SIGTERM), so their shutdowns overlap,
/// waits up to `grace` for each, then kills what is left.
pub fn terminate_all(targets: &[(u32, String)], grace: Duration) {
    let live: Vec<&(u32, String)> = targets.iter().filter(|(p, m)| alive(*p, m)).collect();
    for (pid, _) in &live {
        // SAFETY: the pid was just confirmed to be our process; sending a signal has no memory
        // effects.
        unsafe { libc::kill(*pid as libc::pid_t, libc::SIGTERM) };
    }
    let deadline = Instant::now() + grace;
    for (pid, marker) in live {
        while Instant::now() < deadline && alive(*pid, marker) {
            reap(*pid);
            std::thread::sleep(Duration::from_millis(20));
        }
        if alive(*pid, marker) {
            // SAFETY: as above.
            unsafe { libc::kill(*pid as libc::pid_t, libc::SIGKILL) };
        }
        while alive(*pid, marker) {
            reap(*pid);
            std::thread::sleep(Duration::from_millis(10));
        }
        // Its command line is gone before its files are: a process drops its memory first
        // and closes its files (releasing the store's lock) only afterwards. A node started
        // again meanwhile finds its store "already open".
        let closing = Instant::now() + grace;
        while Instant::now() < closing && exiting(*pid) {
            reap(*pid);
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Whether `pid` is a process that is exiting but may not yet have closed its files: its
/// command line is already empty, and one of its threads is not yet a zombie (the last thread
/// to exit closes the files, then becomes one). Only asked right after `pid` was seen as our
/// process, so a new process reusing the pid meanwhile is not a concern.
fn exiting(pid: u32) -> bool {
    let dir = Path::new("/proc").join(pid.to_string());
    if !std::fs::read(dir.join("cmdline")).is_ok_and(|c| c.is_empty()) {
        return false;
    }
    let Ok(tasks) = std::fs::read_dir(dir.join("task")) else {
        return false;
    };
    tasks.flatten().any(|task| {
        state(&task.path().join("stat")).is_some_and(|state| state != "Z" && state != "X")
    })
}

/// The state letter in a `/proc/.../stat` file (`R`, `S`, `Z`, …), if it can be read.
fn state(stat: &Path) -> Option<String> {
    let stat = std::fs::read_to_string(stat).ok()?;
    // It follows the parenthesised name, which may itself contain ')'.
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().next().map(str::to_owned)
}

/// Collects `pid`'s exit status if it is our child (no-op otherwise), so it does not linger
/// as a zombie.
fn reap(pid: u32) {
    let mut status = 0;
    // SAFETY: WNOHANG never blocks; a pid that is not our child just returns an error.
    unsafe { libc::waitpid(pid as libc::pid_t, &mut status, libc::WNOHANG) };
}

/// The last `lines` lines of a log file (for error messages).
pub fn tail(log: &Path, lines: usize) -> String {
    let Ok(mut f) = std::fs::File::open(log) else {
        return String::from("(no log)");
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(16 * 1024)));
    let mut text = String::new();
    let _ = f.read_to_string(&mut text);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

    use super::*;

    #[test]
    fn exiting_is_only_a_process_between_losing_its_memory_and_becoming_a_zombie() {
        // A live process (this one) has its command line: not exiting.
        assert!(!exiting(std::process::id()));
        // A child that exited and was not reaped is a zombie: its files are closed.
        let mut child = Command::new("true").spawn().expect("spawn true");
        let pid = child.id();
        let deadline = Instant::now() + Duration::from_secs(10);
        let stat = Path::new("/proc").join(pid.to_string()).join("stat");
        while state(&stat).as_deref() != Some("Z") {
            assert!(Instant::now() < deadline, "`true` never exited");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!exiting(pid));
        // Reaped, it is gone.
        child.wait().expect("wait");
        assert!(!exiting(pid));
    }
}
