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
