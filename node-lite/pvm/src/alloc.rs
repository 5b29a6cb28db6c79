//! A counting global allocator: the per-call memory limit is *counted*, not estimated.
//!
//! While a PVM call runs, every allocation made on its thread, and every deallocation of memory
//! allocated during the same call, adjusts a thread-local byte count. Crossing the limit never
//! refuses an allocation (Rust aborts the process on allocation failure); it raises a sticky flag
//! that the meter turns into a `MemoryLimit` failure at the next charge point. Allocations large
//! enough to matter on their own (`[0] * 10**9`, `'a' * 10**9`, …) are refused *before* they are
//! requested, by the size checks in the runtime's patched operations.
//!
//! Freeing memory that was allocated *before* the call does not count: how much of it there is
//! to free depends on the node's history, not on the chain. RustPython reuses the memory of dead
//! objects kept on its free lists, and drops what such an object still held from its earlier
//! life (a dict's table, a list's buffer) only when the object is reused — during whichever
//! call reuses it. So every block carries, in a header before the memory it hands out, the
//! tracked span it was allocated in.

use std::{
    alloc::{GlobalAlloc, Layout, System},
    cell::Cell,
    sync::atomic::{AtomicU64, Ordering},
};

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    /// The span being tracked on this thread (0: none).
    static SPAN: Cell<u64> = const { Cell::new(0) };
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static LIMIT: Cell<isize> = const { Cell::new(isize::MAX) };
    static EXCEEDED: Cell<bool> = const { Cell::new(false) };
}

/// Tracked spans are numbered across threads, so memory allocated in one thread's span and
/// freed by another thread never counts against a span of the other that has the same number.
static NEXT_SPAN: AtomicU64 = AtomicU64::new(1);

/// The process allocator: the system allocator plus per-thread accounting.
pub struct CountingAllocator;

/// Room before each block for the number of the span it was allocated in: at least the stamp's
/// size, a multiple of the block's alignment so the block stays aligned.
#[inline]
fn header(layout: Layout) -> usize {
    layout.align().max(16)
}

/// The layout asked of the system allocator for `layout` (`None` if it would overflow).
#[inline]
fn outer(layout: Layout) -> Option<Layout> {
    let size = layout.size().checked_add(header(layout))?;
    Layout::from_size_align(size, layout.align()).ok()
}

/// The span a block allocated now belongs to (0 outside tracked spans).
#[inline]
fn current_span() -> u64 {
    let tracking = TRACKING.try_with(Cell::get).unwrap_or(false);
    if tracking {
        SPAN.try_with(Cell::get).unwrap_or(0)
    } else {
        0
    }
}

/// # Safety
/// `block` is a block this allocator handed out.
#[inline]
unsafe fn stamp_of(block: *mut u8) -> *mut u64 {
    // SAFETY: the header is at least 16 bytes, and its last 8 bytes hold the stamp.
    unsafe { block.sub(8).cast::<u64>() }
}

/// The block for `layout` inside `base`, which the system allocator just returned for
/// `outer(layout)`: stamped with the running span, and counted against it.
///
/// # Safety
/// `base` is non-null and was allocated for `outer(layout)`.
#[inline]
unsafe fn hand_out(base: *mut u8, layout: Layout) -> *mut u8 {
    let block = unsafe { base.add(header(layout)) };
    let span = current_span();
    unsafe { stamp_of(block).write(span) };
    if span != 0 {
        record(layout.size() as isize);
    }
    block
}

#[inline]
fn record(delta: isize) {
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

// SAFETY: every method forwards to `System` with the caller's layout grown by a header of a
// multiple of its alignment, and hands out the address just past the header, which is therefore
// aligned as asked; the stamp lives inside the header. The bookkeeping only touches
// const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(outer) = outer(layout) else {
            return std::ptr::null_mut();
        };
        let base = unsafe { System.alloc(outer) };
        if base.is_null() {
            return base;
        }
        unsafe { hand_out(base, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let Some(outer) = outer(layout) else {
            return std::ptr::null_mut();
        };
        let base = unsafe { System.alloc_zeroed(outer) };
        if base.is_null() {
            return base;
        }
        unsafe { hand_out(base, layout) }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let span = unsafe { stamp_of(block).read() };
        if span != 0 && span == current_span() {
            record(-(layout.size() as isize));
        }
        // `outer` succeeded when the block was allocated with this layout.
        if let Some(outer) = outer(layout) {
            unsafe { System.dealloc(block.sub(header(layout)), outer) };
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Some(outer) = outer(layout) else {
            return std::ptr::null_mut();
        };
        let Some(new_outer_size) = new_size.checked_add(header(layout)) else {
            return std::ptr::null_mut();
        };
        let span = unsafe { stamp_of(block).read() };
        let base = unsafe { System.realloc(block.sub(header(layout)), outer, new_outer_size) };
        if base.is_null() {
            return base;
        }
        let moved = unsafe { base.add(header(layout)) };
        let now = current_span();
        if now != 0 {
            if span == now {
                record(new_size as isize - layout.size() as isize);
            } else {
                // Memory from before the span, grown in it: all of it is the span's now.
                record(new_size as isize);
                unsafe { stamp_of(moved).write(now) };
            }
        }
        moved
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Starts counting this thread's allocations against `limit` bytes.
pub fn start(limit: usize) {
    SPAN.with(|s| s.set(NEXT_SPAN.fetch_add(1, Ordering::Relaxed)));
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

/// Bytes currently counted as in use.
pub fn in_use() -> isize {
    IN_USE.with(|u| u.get())
}

/// Bytes still available under the limit (0 when exceeded).
pub fn headroom() -> usize {
    let limit = LIMIT.with(|l| l.get());
    let used = IN_USE.with(|u| u.get()).max(0);
    (limit - used).max(0) as usize
}

/// Runs `f` without counting what it allocates (its blocks count as allocated before the span:
/// freeing them later in the span counts nothing either).
pub fn untracked<R>(f: impl FnOnce() -> R) -> R {
    let was = TRACKING.with(|t| t.replace(false));
    let result = f();
    TRACKING.with(|t| t.set(was));
    result
}

/// Counts `bytes` as allocated by the tracked span, if one is running.
pub fn charge(bytes: usize) {
    if TRACKING.with(Cell::get) {
        record(isize::try_from(bytes).unwrap_or(isize::MAX));
    }
}

/// Whether a span is being tracked on this thread.
pub fn tracking() -> bool {
    TRACKING.with(|t| t.get())
}
