//! The custom executor: a command the operator whitelisted for the job's `kind`
//! (`[custom.KIND]` in the configuration), run with the payload on stdin, its stdout the
//! result, killed at the job's wall time and limited in address space (the lower of the
//! operator's `max_memory_mb` and the job's). A non-zero exit is an external fault.

use super::{Backends, ExecError, Produced};
use cowboy_types::job::{CustomRequest, JobSpec};
use std::process::Stdio;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

pub async fn run(
    request: &CustomRequest,
    spec: &JobSpec,
    backends: &Backends,
) -> Result<Produced, ExecError> {
    let command = backends
        .config
        .custom
        .get(request.kind.as_str())
        .ok_or_else(|| {
            ExecError::Unsupported(format!(
                "custom kind {:?} is not whitelisted in this runner's configuration",
                request.kind.as_str()
            ))
        })?;
    let (program, args) = command
        .command
        .split_first()
        .ok_or_else(|| ExecError::Unsupported("empty custom command".into()))?;
    let memory_mb = match spec.bounds.max_memory_mb {
        0 => command.max_memory_mb,
        job => job.min(command.max_memory_mb),
    };
    let bytes = memory_mb.saturating_mul(1024 * 1024);
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    // SAFETY: only async-signal-safe calls (setrlimit) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| ExecError::External(format!("cannot start {program}: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A command that does not read its input is not an error.
        let _ = stdin.write_all(&request.payload).await;
    }
    let cap = u64::from(spec.schema.max_return_bytes) + 1;
    let mut out = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        stdout
            .take(cap)
            .read_to_end(&mut out)
            .await
            .map_err(|e| ExecError::External(format!("reading {program}'s output: {e}")))?;
    }
    let status = child
        .wait()
        .await
        .map_err(|e| ExecError::External(format!("waiting for {program}: {e}")))?;
    if !status.success() {
        return Err(ExecError::External(format!(
            "{program} exited with {status}"
        )));
    }
    Ok(Produced {
        result: out,
        tokens: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{config::CustomCommand, exec::Backends};

    fn backends(kind: &str, command: &[&str]) -> Backends {
        let mut config = crate::RunnerConfig::template(
            "http://127.0.0.1:1",
            "runner",
            "127.0.0.1:9".parse().expect("addr"),
            0,
        );
        config.custom.insert(
            kind.into(),
            CustomCommand {
                command: command.iter().map(|s| s.to_string()).collect(),
                max_memory_mb: 256,
            },
        );
        Backends::new(config).expect("backends")
    }

    fn spec(kind: &str, payload: &[u8], wall_ms: u64) -> JobSpec {
        serde_json::from_value(serde_json::json!({
            "input": {"custom": {"kind": kind, "payload": format!("0x{}", hex::encode(payload))}},
            "bounds": {"max_wall_ms": wall_ms},
            "schema": {"max_return_bytes": 64, "expected_execution_ms": 10, "data_format": {"bytes": {}}},
            "verification": {"mode": {"none": {}}},
            "max_price": "1",
            "timeout_blocks": 20,
            "callback": {"actor": "0x0000000000000000000000000000000000000001", "handler": "h"}
        }))
        .expect("spec")
    }

    #[tokio::test]
    async fn a_whitelisted_command_runs_within_its_limits() {
        let b = backends("echo", &["cat"]);
        let out = crate::exec::execute(&spec("echo", b"hello", 5_000), &b, None).await;
        assert_eq!((out.result.as_slice(), out.fault), (&b"hello"[..], None));
        // Not whitelisted: an external fault, nothing run.
        let out = crate::exec::execute(&spec("other", b"x", 5_000), &b, None).await;
        assert!(
            out.note
                .as_deref()
                .is_some_and(|n| n.contains("not whitelisted")),
            "{out:?}"
        );
        // Past its wall time: killed, reported as bounds too tight.
        let b = backends("sleep", &["sleep", "5"]);
        let out = crate::exec::execute(&spec("sleep", b"", 200), &b, None).await;
        assert_eq!(
            out.fault.map(|f| f.kind),
            Some(cowboy_types::job::FaultKind::BoundsTooTight)
        );
        // More output than the job returns: bounds too tight.
        let b = backends("yes", &["head", "-c", "1000", "/dev/zero"]);
        let out = crate::exec::execute(&spec("yes", b"", 5_000), &b, None).await;
        assert_eq!(
            out.fault.map(|f| f.kind),
            Some(cowboy_types::job::FaultKind::BoundsTooTight),
            "{out:?}"
        );
    }
}
