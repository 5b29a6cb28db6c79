//! A thread that owns a PVM [`Engine`] and runs jobs on it. The interpreter is neither `Send`
//! nor cheap to create (~0.3 s), so each worker creates one and keeps it; the node runs one
//! worker for executing finalized blocks and a small [`WorkerPool`] for read-only queries, so
//! a slow query never delays execution, nor more than a pool's worth of other queries.

use cowboy_pvm::Engine;
use std::sync::mpsc;

type Job = Box<dyn FnOnce(&mut Engine) + Send>;

/// A handle to an engine thread. Dropping every handle stops the thread.
#[derive(Clone)]
pub struct Worker {
    jobs: mpsc::Sender<Job>,
}

/// The engine in `slot`, built first if there is none yet (a failure is logged: the worker then
/// ends and its jobs report it gone).
fn ready<'a>(slot: &'a mut Option<Engine>, name: &'static str) -> Option<&'a mut Engine> {
    if slot.is_none() {
        *slot = Engine::new()
            .inspect_err(
                |e| tracing::error!(worker = name, error = %e, "cannot start the Python VM"),
            )
            .ok();
    }
    slot.as_mut()
}

/// The worker thread is gone (its engine failed to start, or a job panicked).
#[derive(Debug, thiserror::Error)]
#[error("the {0} engine thread is not running")]
pub struct WorkerGone(pub &'static str);

impl Worker {
    /// Starts a thread named `name` that builds a fresh engine at once and then runs jobs.
    /// Building an interpreter takes a noticeable fraction of a second, so it happens in the
    /// background: the node's RPC and consensus start meanwhile, and jobs queue until the
    /// engine is ready. If the engine cannot be built, the failure is logged and every job
    /// reports the worker gone.
    pub fn spawn(name: &'static str) -> Result<Self, cowboy_pvm::engine::InitError> {
        Self::start(name, true)
    }

    /// As [`Self::spawn`], but the engine is built by the first job: for work that may never
    /// come (read-only queries), so a starting node does not pay for it.
    pub fn spawn_lazy(name: &'static str) -> Result<Self, cowboy_pvm::engine::InitError> {
        Self::start(name, false)
    }

    fn start(name: &'static str, eager: bool) -> Result<Self, cowboy_pvm::engine::InitError> {
        let (jobs, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(cowboy_pvm::thread::STACK_BYTES)
            .spawn(move || {
                let mut slot = None;
                if eager && ready(&mut slot, name).is_none() {
                    return;
                }
                while let Ok(job) = rx.recv() {
                    let Some(engine) = ready(&mut slot, name) else {
                        return;
                    };
                    // A panic in a job (the PVM has its own boundary around each call; this is
                    // for everything around it) must not end the thread: the job's caller sees
                    // its result channel closed (`WorkerGone`), and the engine, which may be
                    // half-way through something, is replaced before the next job.
                    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        job(engine);
                    }));
                    if ran.is_err() {
                        tracing::error!(worker = name, "a job panicked; starting a fresh engine");
                        slot = None;
                    }
                }
            })
            .map_err(|e| cowboy_pvm::engine::InitError(e.to_string()))?;
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

/// Engine threads that take turns: a job waits for a free one (a bounded time), so at most
/// `size` jobs run at once and a slow one holds up only its own thread.
pub struct WorkerPool {
    name: &'static str,
    free: tokio::sync::Mutex<tokio::sync::mpsc::Receiver<Worker>>,
    back: tokio::sync::mpsc::Sender<Worker>,
}

/// Every worker of a pool stayed busy for the whole wait.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("all {0} query engines are busy; retry shortly")]
    Busy(usize),
    #[error(transparent)]
    Gone(#[from] WorkerGone),
}

impl WorkerPool {
    /// `size` lazily started workers named `name`.
    pub fn spawn_lazy(
        name: &'static str,
        size: usize,
    ) -> Result<Self, cowboy_pvm::engine::InitError> {
        let size = size.max(1);
        let (back, free) = tokio::sync::mpsc::channel(size);
        for _ in 0..size {
            back.try_send(Worker::spawn_lazy(name)?)
                .map_err(|_| cowboy_pvm::engine::InitError("worker pool is full".into()))?;
        }
        Ok(Self {
            name,
            free: tokio::sync::Mutex::new(free),
            back,
        })
    }

    /// Runs `f` on a free worker, waiting at most `wait` for one.
    pub async fn run<R: Send + 'static>(
        &self,
        wait: std::time::Duration,
        f: impl FnOnce(&mut Engine) -> R + Send + 'static,
    ) -> Result<R, PoolError> {
        let worker = {
            let mut free = self.free.lock().await;
            match tokio::time::timeout(wait, free.recv()).await {
                Ok(Some(w)) => w,
                Ok(None) => return Err(PoolError::Gone(WorkerGone(self.name))),
                Err(_) => return Err(PoolError::Busy(self.back.max_capacity())),
            }
        };
        let result = worker.run(self.name, f).await;
        // The pool's channel holds exactly its workers: a returned worker always fits.
        let _ = self.back.try_send(worker);
        Ok(result?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{sync::Arc, time::Duration};

    #[tokio::test]
    async fn a_full_pool_answers_busy_and_a_panicking_job_leaves_its_worker_running() {
        let pool = Arc::new(WorkerPool::spawn_lazy("test-query", 1).expect("pool"));
        let (release, hold) = mpsc::channel::<()>();
        let (started, running) = tokio::sync::oneshot::channel();
        let slow = tokio::spawn({
            let pool = pool.clone();
            async move {
                pool.run(Duration::from_secs(60), move |_| {
                    let _ = started.send(());
                    let _ = hold.recv();
                    1
                })
                .await
            }
        });
        running.await.expect("the slow job started");
        // Its only engine is taken: the next job waits its bounded time, then hears "busy".
        let busy = pool.run(Duration::from_millis(50), |_| 2).await;
        assert!(matches!(busy, Err(PoolError::Busy(1))), "{busy:?}");
        assert!(busy.unwrap_err().to_string().contains("retry shortly"));
        release.send(()).expect("release");
        assert_eq!(slow.await.expect("join").expect("slow job"), 1);

        // A job that panics reports its worker gone for that job only.
        let panicked = pool
            .run(Duration::from_secs(60), |_| -> u32 {
                panic!("a bug in a job")
            })
            .await;
        assert!(matches!(panicked, Err(PoolError::Gone(_))), "{panicked:?}");
        let after = pool.run(Duration::from_secs(60), |_| 3).await;
        assert_eq!(after.expect("the worker runs on"), 3);
    }
}
