//! Giving a burst's memory back to the system (issue 35).
//!
//! A burst of claims and launches runs hundreds of actions at once, each with its own request
//! and response buffers; when it is over, glibc's allocator keeps the freed pages in its arenas
//! (measured at 2,000 held sessions: 63 MB taken from the system, 35 MB in use). Trimming once
//! per janitor pass returns what is free, so the resident size follows what is held.

/// Return the allocator's free memory to the system (glibc on Linux; elsewhere nothing).
pub(super) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only releases free memory of the allocator's own arenas; it takes
    // the arenas' locks itself and touches no memory the program holds.
    unsafe {
        libc::malloc_trim(0);
    }
}
