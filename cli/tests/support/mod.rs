//! Helpers shared by the process-level tests and benchmarks: free loopback ports.

#![allow(dead_code)]

/// A free port range: the OS picks one port; we use it and the `count - 1` after it. Ports
/// handed out before in this process are never reused, so parallel callers do not collide.
pub fn free_base(count: u16) -> u16 {
    use std::sync::Mutex;
    static TAKEN: Mutex<Vec<(u16, u16)>> = Mutex::new(Vec::new());
    loop {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = l.local_addr().expect("addr").port();
        drop(l);
        let mut taken = TAKEN.lock().unwrap_or_else(|p| p.into_inner());
        let overlaps = taken
            .iter()
            .any(|(b, n)| base < b + n && *b < base.saturating_add(count));
        if base < 60_000
            && !overlaps
            && (0..count).all(|i| std::net::TcpListener::bind(("127.0.0.1", base + i)).is_ok())
        {
            taken.push((base, count));
            return base;
        }
    }
}
