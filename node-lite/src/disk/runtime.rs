//! The runtime context consensus runs in: the node's own, except that its storage never fails
//! a write for lack of space. Such a write releases the disk reserve and is retried, or waits
//! until the node resumes ([`super`]). Without this, Commonware's voter panics on the first
//! journal append that finds the disk full, and the node exits.
//!
//! Writes that ask for `SYNC` are issued as a plain write followed by a sync: a fused
//! `RWF_DSYNC` write that fails poisons its blob for good, so it could not be retried.

use super::{Disk, OnFull, WAIT};
use commonware_runtime::{
    Blob, BlobVersion, Clock, Error, Handle, IoBufs, IoBufsMut, Metrics, Name, Network,
    ReadOptions, SinkOf, Spawner, Storage, StreamOf, Supervisor, WriteOptions,
    signal::Signal,
    telemetry::metrics::{Metric, Registered},
};
use std::{
    future::Future,
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, SystemTime},
};

/// A runtime context `E` whose storage waits for space instead of failing.
pub struct Patient<E> {
    inner: E,
    waiter: Waiter<E>,
}

/// What a write that found the disk full waits with: the disk watch, and a clock (a context of
/// its own: runtime contexts are not `Clone`).
struct Waiter<E> {
    clock: Arc<E>,
    disk: Arc<Disk>,
    /// The storage directory (for messages).
    root: Arc<PathBuf>,
}

impl<E> Clone for Waiter<E> {
    fn clone(&self) -> Self {
        Self {
            clock: self.clock.clone(),
            disk: self.disk.clone(),
            root: self.root.clone(),
        }
    }
}

impl<E: Supervisor> Patient<E> {
    /// Wraps `inner`, whose storage lives under `root`, on the data directory `disk` watches.
    pub fn new(inner: E, disk: Arc<Disk>, root: PathBuf) -> Self {
        let waiter = Waiter {
            clock: Arc::new(inner.child("disk_wait")),
            disk,
            root: Arc::new(root),
        };
        Self { inner, waiter }
    }
}

/// Whether a storage error means the disk (or the quota) is full. The tokio runtime reports
/// some failed writes on a full filesystem (tmpfs among them) as a bare `WriteFailed`: that
/// counts as full when the disk is below its floor.
fn is_full(error: &Error, disk: &Disk) -> bool {
    match error {
        Error::Io(e) | Error::BlobOpenFailed(_, _, e) | Error::BlobResizeFailed(_, _, e) => {
            cowboy_state::is_full(e)
        }
        Error::WriteFailed => {
            let now = disk.check();
            now.free_bytes < now.min_free_bytes
        }
        _ => false,
    }
}

impl<E: Clock> Waiter<E> {
    /// Runs `op` until it succeeds or fails for a reason other than a full disk.
    async fn patiently<T, F, Fut>(&self, file: &Path, mut op: F) -> Result<T, Error>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Error>>,
    {
        loop {
            match op().await {
                Err(e) if is_full(&e, &self.disk) => {
                    if self.disk.on_full(file) == OnFull::WaitForSpace {
                        // At least one wait: a full quota leaves statvfs showing free space.
                        self.clock.sleep(WAIT).await;
                        while self.disk.check().paused {
                            self.clock.sleep(WAIT).await;
                        }
                    }
                }
                other => return other,
            }
        }
    }

    fn file(&self, partition: &str, name: &[u8]) -> PathBuf {
        let hex: String = name.iter().map(|b| format!("{b:02x}")).collect();
        self.root.join(partition).join(hex)
    }
}

impl<E: Supervisor> Supervisor for Patient<E> {
    fn name(&self) -> Name {
        self.inner.name()
    }

    fn child(&self, label: &'static str) -> Self {
        Self {
            inner: self.inner.child(label),
            waiter: self.waiter.clone(),
        }
    }

    fn with_attribute(self, key: &'static str, value: impl std::fmt::Display) -> Self {
        let inner = self.inner.with_attribute(key, value);
        Self { inner, ..self }
    }
}

impl<E: Spawner> Spawner for Patient<E> {
    fn shared(self, blocking: bool) -> Self {
        let inner = self.inner.shared(blocking);
        Self { inner, ..self }
    }

    fn dedicated(self) -> Self {
        let inner = self.inner.dedicated();
        Self { inner, ..self }
    }

    fn spawn<F, Fut, T>(self, f: F) -> Handle<T>
    where
        Self: Sized,
        F: FnOnce(Self) -> Fut + Send + 'static,
        Fut: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let waiter = self.waiter;
        self.inner.spawn(move |inner| f(Patient { inner, waiter }))
    }

    fn stop(
        self,
        value: i32,
        timeout: Option<Duration>,
    ) -> impl Future<Output = Result<(), Error>> + Send {
        self.inner.stop(value, timeout)
    }

    fn stopped(&self) -> Signal {
        self.inner.stopped()
    }
}

impl<E: Metrics> Metrics for Patient<E> {
    fn register<N: Into<String>, H: Into<String>, M: Metric>(
        &self,
        name: N,
        help: H,
        metric: M,
    ) -> Registered<M> {
        self.inner.register(name, help, metric)
    }

    fn encode(&self) -> String {
        self.inner.encode()
    }
}

impl<E: Clock> governor::clock::Clock for Patient<E> {
    type Instant = SystemTime;

    fn now(&self) -> SystemTime {
        self.inner.current()
    }
}

impl<E: Clock> governor::clock::ReasonablyRealtime for Patient<E> {}

impl<E: Clock> Clock for Patient<E> {
    fn current(&self) -> SystemTime {
        self.inner.current()
    }

    fn sleep(&self, duration: Duration) -> impl Future<Output = ()> + Send + 'static + use<E> {
        self.inner.sleep(duration)
    }

    fn sleep_until(
        &self,
        deadline: SystemTime,
    ) -> impl Future<Output = ()> + Send + 'static + use<E> {
        self.inner.sleep_until(deadline)
    }
}

impl<E: Network> Network for Patient<E> {
    type Listener = E::Listener;

    fn bind(
        &self,
        socket: SocketAddr,
    ) -> impl Future<Output = Result<Self::Listener, Error>> + Send {
        self.inner.bind(socket)
    }

    fn dial(
        &self,
        socket: SocketAddr,
    ) -> impl Future<Output = Result<(SinkOf<Self>, StreamOf<Self>), Error>> + Send {
        self.inner.dial(socket)
    }
}

impl<E: rand_core_010::TryRng> rand_core_010::TryRng for Patient<E> {
    type Error = E::Error;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.inner.try_next_u32()
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.inner.try_next_u64()
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Self::Error> {
        self.inner.try_fill_bytes(dest)
    }
}

impl<E: rand_core_010::TryCryptoRng> rand_core_010::TryCryptoRng for Patient<E> {}

impl<E: Storage + Clock> Storage for Patient<E> {
    type Blob = PatientBlob<E::Blob, E>;

    async fn open_versioned(
        &self,
        partition: &str,
        name: &[u8],
        versions: std::ops::RangeInclusive<BlobVersion>,
    ) -> Result<(Self::Blob, u64, BlobVersion), Error> {
        let file = self.waiter.file(partition, name);
        let (blob, len, version) = self
            .waiter
            .patiently(&file, || {
                self.inner.open_versioned(partition, name, versions.clone())
            })
            .await?;
        let blob = PatientBlob {
            blob,
            waiter: self.waiter.clone(),
            file,
        };
        Ok((blob, len, version))
    }

    fn remove(
        &self,
        partition: &str,
        name: Option<&[u8]>,
    ) -> impl Future<Output = Result<(), Error>> + Send {
        self.inner.remove(partition, name)
    }

    fn scan(&self, partition: &str) -> impl Future<Output = Result<Vec<Vec<u8>>, Error>> + Send {
        self.inner.scan(partition)
    }
}

/// A blob whose writes wait for space.
pub struct PatientBlob<B, E> {
    blob: B,
    waiter: Waiter<E>,
    file: PathBuf,
}

impl<B: Blob, E: Clock> Blob for PatientBlob<B, E> {
    fn read_at_buf(
        &self,
        offset: u64,
        len: usize,
        bufs: impl Into<IoBufsMut> + Send,
        options: ReadOptions,
    ) -> impl Future<Output = Result<IoBufsMut, Error>> + Send {
        self.blob.read_at_buf(offset, len, bufs, options)
    }

    fn read_at(
        &self,
        offset: u64,
        len: usize,
        options: ReadOptions,
    ) -> impl Future<Output = Result<IoBufsMut, Error>> + Send {
        self.blob.read_at(offset, len, options)
    }

    fn read_many(
        &self,
        ranges: &[(u64, usize)],
        options: ReadOptions,
    ) -> impl futures::Stream<Item = Result<(usize, IoBufsMut), Error>> + Send {
        self.blob.read_many(ranges, options)
    }

    fn start_read_many(
        &self,
        ranges: &[(u64, usize)],
        options: ReadOptions,
    ) -> impl Future<Output = Handle<Vec<IoBufsMut>>> + Send {
        self.blob.start_read_many(ranges, options)
    }

    fn write_at(
        &self,
        offset: u64,
        bufs: impl Into<IoBufs> + Send,
        options: WriteOptions,
    ) -> impl Future<Output = Result<(), Error>> + Send {
        let bufs = bufs.into();
        async move {
            let sync = options.contains(WriteOptions::SYNC);
            let plain = options.without(WriteOptions::SYNC);
            self.waiter
                .patiently(&self.file, || {
                    self.blob.write_at(offset, bufs.clone(), plain)
                })
                .await?;
            if sync {
                self.blob.sync().await?;
            }
            Ok(())
        }
    }

    fn resize(&self, len: u64) -> impl Future<Output = Result<(), Error>> + Send {
        self.waiter
            .patiently(&self.file, move || self.blob.resize(len))
    }

    fn sync(&self) -> impl Future<Output = Result<(), Error>> + Send {
        self.blob.sync()
    }

    fn start_sync(&self) -> impl Future<Output = Handle<()>> + Send {
        self.blob.start_sync()
    }
}
