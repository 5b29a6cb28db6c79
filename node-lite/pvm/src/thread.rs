//! A dedicated thread for an [`Engine`]: RustPython interpreters are not `Send`, and actors
//! must run on a large, fixed stack so deep native recursion (a `repr` of a deeply nested list)
//! hits the recursion or memory limit long before the stack ends.

use crate::engine::{Engine, InitError};
use std::{sync::mpsc, thread::JoinHandle};

/// Stack size of the PVM thread. Reserved, not committed: only touched pages use memory.
pub const STACK_BYTES: usize = 512 * 1024 * 1024;

type Job = Box<dyn FnOnce(&mut Engine) + Send>;

/// An engine on its own thread; jobs run one at a time, in order.
pub struct PvmThread {
    jobs: Option<mpsc::Sender<Job>>,
    handle: Option<JoinHandle<()>>,
}

/// The PVM thread is gone (it panicked or was shut down).
#[derive(Debug, thiserror::Error)]
#[error("the PVM thread stopped unexpectedly")]
pub struct ThreadGone;

impl PvmThread {
    /// Starts the thread and builds its engine; fails if the engine cannot start.
    pub fn spawn() -> Result<Self, InitError> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<(), InitError>>();
        let handle = std::thread::Builder::new()
            .name("pvm".into())
            .stack_size(STACK_BYTES)
            .spawn(move || {
                let mut engine = match Engine::new() {
                    Ok(e) => {
                        let _ = ready_tx.send(Ok(()));
                        e
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                while let Ok(job) = queue.recv() {
                    job(&mut engine);
                }
            })
            .map_err(|e| InitError(format!("cannot start the PVM thread: {e}")))?;
        ready_rx
            .recv()
            .map_err(|_| InitError("the PVM thread exited during start-up".into()))??;
        Ok(Self {
            jobs: Some(jobs),
            handle: Some(handle),
        })
    }

    /// Runs `f` on the engine and returns its result.
    pub fn run<R, F>(&self, f: F) -> Result<R, ThreadGone>
    where
        R: Send + 'static,
        F: FnOnce(&mut Engine) -> R + Send + 'static,
    {
        let (tx, rx) = mpsc::channel();
        let job: Job = Box::new(move |engine| {
            let _ = tx.send(f(engine));
        });
        self.jobs
            .as_ref()
            .ok_or(ThreadGone)?
            .send(job)
            .map_err(|_| ThreadGone)?;
        rx.recv().map_err(|_| ThreadGone)
    }
}

impl Drop for PvmThread {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
