//! The state of the call executing on this thread, reachable from native functions.
//!
//! Native functions (`pvm_host.*`) are plain functions called by the interpreter, so the call's
//! context, its buffered effects and the host live in a thread-local for the duration of one
//! call. [`CallGuard`] installs it and removes it when the call ends, whatever happens, so the
//! host pointer it holds never outlives the borrow it came from.

use crate::host::{CallContext, Effects, Host};
use std::{cell::RefCell, collections::BTreeSet};

/// The executing call.
pub struct CallState {
    host: *mut (dyn Host + 'static),
    pub ctx: CallContext,
    pub effects: Effects,
    /// Whitelisted modules imported so far in this call (for the first/cached import price).
    pub imported: BTreeSet<String>,
    /// Counter mixed into message and timer ids.
    pub next_id: u64,
    /// Bytes of `print` output so far (capped).
    pub log_bytes: usize,
    /// The running actor's class and public handlers: a timer it sets must name one.
    pub shape: std::rc::Rc<crate::validate::ActorShape>,
}

thread_local! {
    static CURRENT: RefCell<Option<CallState>> = const { RefCell::new(None) };
}

/// Removes the call state when dropped.
pub struct CallGuard;

impl CallGuard {
    /// Installs the state for a call. `host` must stay borrowed until the guard is dropped,
    /// which the lifetime parameter enforces.
    pub fn install<'h>(
        host: &'h mut (dyn Host + 'h),
        ctx: CallContext,
        shape: std::rc::Rc<crate::validate::ActorShape>,
    ) -> GuardWithHost<'h> {
        // SAFETY: the lifetime is erased only for storage in the thread-local. The pointer is
        // dereferenced only through `with_host`, while a call is running, and the returned
        // guard (which borrows `host` for 'h) removes it before the borrow ends.
        let host: *mut (dyn Host + 'h) = host;
        let host: *mut (dyn Host + 'static) = unsafe { std::mem::transmute(host) };
        CURRENT.with(|c| {
            *c.borrow_mut() = Some(CallState {
                host,
                ctx,
                effects: Effects::default(),
                imported: BTreeSet::new(),
                next_id: 0,
                log_bytes: 0,
                shape,
            })
        });
        GuardWithHost {
            _borrow: std::marker::PhantomData,
        }
    }
}

/// Keeps the host borrowed while the call state is installed.
pub struct GuardWithHost<'h> {
    _borrow: std::marker::PhantomData<&'h mut ()>,
}

impl GuardWithHost<'_> {
    /// Removes the call state, returning its effects and the whitelisted modules it imported.
    pub fn finish(self) -> (Effects, BTreeSet<String>) {
        let state = CURRENT.with(|c| c.borrow_mut().take());
        std::mem::forget(self);
        state.map(|s| (s.effects, s.imported)).unwrap_or_default()
    }
}

impl Drop for GuardWithHost<'_> {
    fn drop(&mut self) {
        CURRENT.with(|c| c.borrow_mut().take());
    }
}

/// Why a native function could not reach the call state.
#[derive(Debug, Clone, Copy)]
pub struct NoCall;

/// Runs `f` with the current call state.
pub fn with_state<R>(f: impl FnOnce(&mut CallState) -> R) -> Result<R, NoCall> {
    CURRENT.with(|c| match c.borrow_mut().as_mut() {
        Some(state) => Ok(f(state)),
        None => Err(NoCall),
    })
}

impl CallState {
    /// The host, for the duration of the call.
    pub fn host(&mut self) -> &mut dyn Host {
        // SAFETY: see `CallGuard::install`: the pointee is borrowed for as long as this state
        // is installed, and `&mut self` gives exclusive access.
        unsafe { &mut *self.host }
    }
}
