//! Interpreters started one after another on one thread, as a validator replaces its
//! interpreter (every 100,000 calls, or after a panic) on the thread that keeps RustPython's
//! built-in types: for the tests that a thread's later interpreters charge and answer as its
//! first.

/// Runs `each` on `count` fresh engines, started in turn on one new thread.
pub fn each_interpreter_of_one_thread<T: Send + 'static>(
    count: usize,
    each: impl Fn(&mut cowboy_pvm::Engine) -> T + Send + 'static,
) -> Vec<T> {
    std::thread::Builder::new()
        .stack_size(cowboy_pvm::thread::STACK_BYTES)
        .spawn(move || {
            (0..count)
                .map(|_| each(&mut cowboy_pvm::Engine::new().expect("engine")))
                .collect()
        })
        .expect("thread")
        .join()
        .expect("join")
}
