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
    /// The span open on this thread (0: none): blocks stamped with it are counted in `IN_USE`.
    static SPAN: Cell<u64> = const { Cell::new(0) };
    /// Inside [`untracked`]: new blocks are not counted (stamped 0), though the span is open.
    static PAUSED: Cell<bool> = const { Cell::new(false) };
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

/// The layout asked of the system allocator for a block of `size` bytes aligned as `layout`
/// (`None` if it would overflow, or exceed what a `Layout` may describe).
#[inline]
fn outer(layout: Layout, size: usize) -> Option<Layout> {
    let size = size.checked_add(header(layout))?;
    Layout::from_size_align(size, layout.align()).ok()
}

/// The open span, whose blocks are counted (0: none).
#[inline]
fn open_span() -> u64 {
    SPAN.try_with(Cell::get).unwrap_or(0)
}

/// The stamp of a block allocated now: the open span, or 0 outside spans and in [`untracked`].
#[inline]
fn current_span() -> u64 {
    if PAUSED.try_with(Cell::get).unwrap_or(false) {
        0
    } else {
        open_span()
    }
}

/// The span `block` was counted in (0: none).
///
/// # Safety
/// `block` is a block this allocator handed out.
#[inline]
unsafe fn read_stamp(block: *mut u8) -> u64 {
    // SAFETY: the header is at least 16 bytes, and its last 8 bytes hold the stamp; they are
    // read unaligned, as a block's alignment may be below 8.
    unsafe { block.sub(8).cast::<u64>().read_unaligned() }
}

/// # Safety
/// `block` is a block this allocator handed out.
#[inline]
unsafe fn write_stamp(block: *mut u8, span: u64) {
    // SAFETY: as `read_stamp`.
    unsafe { block.sub(8).cast::<u64>().write_unaligned(span) }
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
    unsafe { write_stamp(block, span) };
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
// aligned as asked; the stamp lives inside the header. A block's stamp says whether the open span
// counted it, so every block is counted exactly once while it lives in that span. The
// bookkeeping only touches const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(outer) = outer(layout, layout.size()) else {
            return std::ptr::null_mut();
        };
        let base = unsafe { System.alloc(outer) };
        if base.is_null() {
            return base;
        }
        unsafe { hand_out(base, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let Some(outer) = outer(layout, layout.size()) else {
            return std::ptr::null_mut();
        };
        let base = unsafe { System.alloc_zeroed(outer) };
        if base.is_null() {
            return base;
        }
        unsafe { hand_out(base, layout) }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let span = unsafe { read_stamp(block) };
        if span != 0 && span == open_span() {
            record(-(layout.size() as isize));
        }
        // `outer` succeeded when the block was allocated with this layout.
        if let Some(outer) = outer(layout, layout.size()) {
            unsafe { System.dealloc(block.sub(header(layout)), outer) };
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let (Some(old_outer), Some(new_outer)) =
            (outer(layout, layout.size()), outer(layout, new_size))
        else {
            return std::ptr::null_mut();
        };
        let span = unsafe { read_stamp(block) };
        let base =
            unsafe { System.realloc(block.sub(header(layout)), old_outer, new_outer.size()) };
        if base.is_null() {
            return base;
        }
        let moved = unsafe { base.add(header(layout)) };
        // The old block leaves the count it was in; the new one joins the current one (none
        // inside `untracked`, as a block allocated there).
        if span != 0 && span == open_span() {
            record(-(layout.size() as isize));
        }
        let now = current_span();
        if now != 0 {
            record(new_size as isize);
        }
        unsafe { write_stamp(moved, now) };
        moved
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
    PAUSED.with(|p| p.set(false));
    SPAN.with(|s| s.set(NEXT_SPAN.fetch_add(1, Ordering::Relaxed)));
}

/// Stops counting; returns the peak number of bytes in use during the tracked span.
pub fn stop() -> usize {
    SPAN.with(|s| s.set(0));
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
/// freeing them later in the span counts nothing either). Freeing a block the span counted
/// still uncounts it.
pub fn untracked<R>(f: impl FnOnce() -> R) -> R {
    let was = PAUSED.with(|p| p.replace(true));
    let result = f();
    PAUSED.with(|p| p.set(was));
    result
}

/// Counts `bytes` as allocated by the tracked span, if one is running.
pub fn charge(bytes: usize) {
    if tracking() {
        record(isize::try_from(bytes).unwrap_or(isize::MAX));
    }
}

/// Whether a span is being tracked on this thread (and not paused by [`untracked`]).
pub fn tracking() -> bool {
    current_span() != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_grown_in_untracked_code_leaves_the_count_as_it_found_it() {
        // A block the span counted, grown inside `untracked` (the string pool, a library
        // table) and freed later in the span: the count must come back to where it started.
        // It kept the old stamp: freeing it uncounted the grown size, more than was counted.
        start(usize::MAX);
        let before = in_use();
        let mut v: Vec<u8> = Vec::with_capacity(64);
        v.push(1);
        assert_eq!(in_use(), before + 64);
        untracked(|| v.reserve_exact(4096));
        assert_eq!(in_use(), before, "the grown block is not the span's");
        drop(v);
        assert_eq!(in_use(), before);
        stop();
    }

    #[test]
    fn blocks_of_every_alignment_keep_their_stamp() {
        start(usize::MAX);
        let before = in_use();
        for align in [1usize, 2, 4, 8, 16, 64, 4096] {
            let layout = Layout::from_size_align(3, align).expect("layout");
            // SAFETY: a non-zero size; freed with the same layout.
            unsafe {
                let p = GLOBAL.alloc(layout);
                assert!(!p.is_null());
                assert_eq!(p as usize % align, 0);
                assert_eq!(read_stamp(p), open_span());
                let q = GLOBAL.realloc(p, layout, 100);
                assert!(!q.is_null());
                assert_eq!(read_stamp(q), open_span());
                GLOBAL.dealloc(q, Layout::from_size_align(100, align).expect("layout"));
            }
        }
        assert_eq!(in_use(), before);
        stop();
    }

    #[test]
    fn a_realloc_beyond_what_a_layout_may_describe_fails_cleanly() {
        let layout = Layout::from_size_align(8, 8).expect("layout");
        // SAFETY: freed with the layout it has after the failed realloc (unchanged).
        unsafe {
            let p = GLOBAL.alloc(layout);
            assert!(!p.is_null());
            let huge = isize::MAX as usize - 4;
            assert!(GLOBAL.realloc(p, layout, huge).is_null());
            GLOBAL.dealloc(p, layout);
        }
    }
}
