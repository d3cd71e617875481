//! The allocator's share of the orchestrator's resident memory.
//!
//! glibc gives each thread that meets contention its own arena (up to 8 per CPU), and an arena
//! keeps what was freed in it for its own thread's next allocations. At 10,000 sessions a
//! burst's transient buffers (HTTP bodies, listings, the status document) were freed into
//! many arenas, each holding its own high-water mark, so the peak RSS grew well beyond what was
//! live at any moment. Two arenas for a process whose work is two runtime threads.

/// Most malloc arenas the orchestrator's process uses.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ARENAS: i32 = 2;

/// Cap the allocator's arenas (glibc only; elsewhere there is nothing to do).
pub(super) fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; arenas already made stay valid.
    unsafe {
        if libc::mallopt(libc::M_ARENA_MAX, ARENAS) != 1 {
            tracing::debug!("mallopt(M_ARENA_MAX) refused; the allocator keeps its default");
        }
    }
}
