//! File descriptors: what the node needs for itself, and what is left for RPC clients.
//!
//! Every TCP connection costs a descriptor, and so do the chain store, the consensus journals
//! and archives, and the p2p connections. When RPC clients took them all, the consensus
//! journal failed to open a file ("Too many open files") and the node exited. So at start the
//! node raises its soft limit to the hard limit, keeps [`reserve`] descriptors for storage and
//! p2p, and caps RPC connections to the rest — refusing to start if the rest is too small to
//! serve anyone.

/// Descriptors storage and consensus may hold open: the chain store, the consensus journals,
/// archives and metadata (a few files each), with room for their rotation.
const STORAGE: u64 = 256;
/// Per peer: its connection, and one being dialled.
const PER_PEER: u64 = 2;
/// Listeners, the log, stdio, signals, the runtime's own.
const OVERHEAD: u64 = 64;
/// The fewest RPC connections a node will start with.
pub const MIN_RPC_CONNECTIONS: u64 = 16;

/// Descriptors kept for everything but RPC connections, for a committee of `validators`.
pub fn reserve(validators: usize) -> u64 {
    STORAGE + OVERHEAD + PER_PEER * validators as u64
}

/// Why the node cannot have the descriptors it needs.
#[derive(Debug, thiserror::Error)]
pub enum FdError {
    #[error("cannot read the open-file limit: {0}")]
    Read(std::io::Error),
    #[error(
        "the open-file limit is {limit}, and this node needs at least {needed} ({reserve} for \
         storage and p2p, {MIN_RPC_CONNECTIONS} for RPC connections); raise it (`ulimit -n \
         {needed}` in the shell that starts the node, or LimitNOFILE= in a systemd unit)"
    )]
    TooLow {
        limit: u64,
        needed: u64,
        reserve: u64,
    },
}

/// Raises the soft open-file limit to the hard limit and returns how many RPC connections
/// the node can afford (at most `wanted`).
pub fn rpc_connections(validators: usize, wanted: usize) -> Result<usize, FdError> {
    let limit = raise_soft_limit()?;
    let reserve = reserve(validators);
    let needed = reserve + MIN_RPC_CONNECTIONS;
    if limit < needed {
        return Err(FdError::TooLow {
            limit,
            needed,
            reserve,
        });
    }
    Ok((limit - reserve).min(wanted as u64) as usize)
}

/// Sets the soft `RLIMIT_NOFILE` to the hard limit; returns the soft limit in force.
fn raise_soft_limit() -> Result<u64, FdError> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(FdError::Read(std::io::Error::last_os_error()));
    }
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: setrlimit reads the struct it is given. Raising the soft limit up to the
        // hard limit needs no privilege; if it fails anyway, the current limit stands.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit = raised;
        }
    }
    // RLIM_INFINITY and other huge values are plenty.
    Ok(limit.rlim_cur)
}
