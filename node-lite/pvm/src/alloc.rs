//! A counting global allocator: the per-call memory limit is *counted*, not estimated.
//!
//! While a PVM call runs, every allocation and deallocation made on its thread adjusts a
//! thread-local byte count. Crossing the limit never refuses an allocation (Rust aborts the
//! process on allocation failure); it raises a sticky flag that the meter turns into a
//! `MemoryLimit` failure at the next charge point. Allocations large enough to matter on their
//! own (`[0] * 10**9`, `'a' * 10**9`, …) are refused *before* they are requested, by the size
//! checks in the runtime's patched operations.

use std::{
    alloc::{GlobalAlloc, Layout, System},
    cell::Cell,
};

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static LIMIT: Cell<isize> = const { Cell::new(isize::MAX) };
    static EXCEEDED: Cell<bool> = const { Cell::new(false) };
}

/// The process allocator: the system allocator plus per-thread accounting.
pub struct CountingAllocator;

#[inline]
fn record(delta: isize) {
    let _ = TRACKING.try_with(|t| {
        if t.get() {
            let _ = IN_USE.try_with(|u| {
                let now = u.get() + delta;
                u.set(now);
                if delta > 0 {
                    let _ = PEAK.try_with(|p| {
                        if now > p.get() {
                            p.set(now);
                        }
                    });
                    let over = LIMIT.try_with(|l| now > l.get()).unwrap_or(false);
                    if over {
                        let _ = EXCEEDED.try_with(|e| e.set(true));
                    }
                }
            });
        }
    });
}

// SAFETY: every method forwards to `System` with the caller's layout and pointer unchanged; the
// bookkeeping only touches const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            record(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            record(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        record(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            record(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Starts counting this thread's allocations against `limit` bytes.
pub fn start(limit: usize) {
    IN_USE.with(|u| u.set(0));
    PEAK.with(|p| p.set(0));
    LIMIT.with(|l| l.set(isize::try_from(limit).unwrap_or(isize::MAX)));
    EXCEEDED.with(|e| e.set(false));
    TRACKING.with(|t| t.set(true));
}

/// Stops counting; returns the peak number of bytes in use during the tracked span.
pub fn stop() -> usize {
    TRACKING.with(|t| t.set(false));
    PEAK.with(|p| p.get().max(0) as usize)
}

/// Whether the tracked span has crossed its limit.
#[inline]
pub fn exceeded() -> bool {
    EXCEEDED.with(|e| e.get())
}

/// Bytes currently counted as in use (may be negative when memory allocated before the span was
/// freed during it).
pub fn in_use() -> isize {
    IN_USE.with(|u| u.get())
}

/// Bytes still available under the limit (0 when exceeded).
pub fn headroom() -> usize {
    let limit = LIMIT.with(|l| l.get());
    let used = IN_USE.with(|u| u.get()).max(0);
    (limit - used).max(0) as usize
}

/// Whether a span is being tracked on this thread.
pub fn tracking() -> bool {
    TRACKING.with(|t| t.get())
}
