//! Giving a burst's memory back to the system (issue 35).
//!
//! A burst of claims and launches runs hundreds of actions at once, each with its own request
//! and response buffers; when it is over, glibc's allocator keeps the freed pages in its arenas
//! (measured at 2,000 held sessions: 63 MB taken from the system, 35 MB in use). Trimming once
//! per janitor pass returns what is free, so the resident size follows what is held.

/// Arenas glibc may create; its default is eight per CPU.
const ARENAS: i32 = 2;

/// Keep glibc's allocator to [`ARENAS`] arenas. Each thread that meets a locked arena gets its
/// own, and a burst's buffers freed on one thread's arena stay there between live allocations,
/// where trimming cannot return them: at 10,000 held sessions (release build,
/// `scripts/bench-fleet.sh`) peak / held RSS went from 176.9 / 139.2 MiB with the default to
/// 154.5 / 118.4 MiB with two (measured as `MALLOC_ARENA_MAX=2`, the parameter this sets),
/// serving as fast. Call before the runtime's threads start.
pub fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets an allocator parameter; called before other threads exist.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, ARENAS);
    }
}

/// Return the allocator's free memory to the system (glibc on Linux; elsewhere nothing).
pub(super) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only releases free memory of the allocator's own arenas; it takes
    // the arenas' locks itself and touches no memory the program holds.
    unsafe {
        libc::malloc_trim(0);
    }
}
