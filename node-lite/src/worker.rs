//! A thread that owns a PVM [`Engine`] and runs jobs on it. The interpreter is neither `Send`
//! nor cheap to create (~0.3 s), so each worker creates one and keeps it; the node runs one
//! worker for executing finalized blocks and one for read-only queries, so a slow query never
//! delays execution.

use cowboy_pvm::Engine;
use std::sync::mpsc;

type Job = Box<dyn FnOnce(&mut Engine) + Send>;

/// A handle to an engine thread. Dropping every handle stops the thread.
#[derive(Clone)]
pub struct Worker {
    jobs: mpsc::Sender<Job>,
}

/// The worker thread is gone (its engine failed to start, or it panicked).
#[derive(Debug, thiserror::Error)]
#[error("the {0} engine thread is not running")]
pub struct WorkerGone(pub &'static str);

impl Worker {
    /// Starts a thread named `name` with a fresh engine.
    pub fn spawn(name: &'static str) -> Result<Self, cowboy_pvm::engine::InitError> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(cowboy_pvm::thread::STACK_BYTES)
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
                while let Ok(job) = rx.recv() {
                    job(&mut engine);
                }
            })
            .map_err(|e| cowboy_pvm::engine::InitError(e.to_string()))?;
        ready_rx
            .recv()
            .map_err(|_| cowboy_pvm::engine::InitError(format!("{name} thread exited")))??;
        Ok(Self { jobs })
    }

    /// Runs `f` on the engine and blocks this thread until it returns (for deterministic
    /// simulations, whose single-threaded runtime cannot be woken from another thread).
    pub fn run_blocking<R: Send + 'static>(
        &self,
        name: &'static str,
        f: impl FnOnce(&mut Engine) -> R + Send + 'static,
    ) -> Result<R, WorkerGone> {
        let (tx, rx) = mpsc::channel();
        self.submit(name, move |engine| {
            let _ = tx.send(f(engine));
        })?;
        rx.recv().map_err(|_| WorkerGone(name))
    }

    /// Runs `f` on the engine and waits for its result without blocking the async runtime.
    pub async fn run<R: Send + 'static>(
        &self,
        name: &'static str,
        f: impl FnOnce(&mut Engine) -> R + Send + 'static,
    ) -> Result<R, WorkerGone> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.submit(name, move |engine| {
            let _ = tx.send(f(engine));
        })?;
        rx.await.map_err(|_| WorkerGone(name))
    }

    /// Queues `job` on the engine thread.
    fn submit(
        &self,
        name: &'static str,
        job: impl FnOnce(&mut Engine) + Send + 'static,
    ) -> Result<(), WorkerGone> {
        self.jobs.send(Box::new(job)).map_err(|_| WorkerGone(name))
    }
}
