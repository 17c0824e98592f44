//! The `hdlscan` command: the command line ([`cli`]: arguments, exit
//! statuses) over the library's public API, which knows nothing of it.

mod cli;

/// jemalloc reuses the buffers a scan frees on other threads than made
/// them, and gives memory back by its own decay; glibc's heap needed
/// trimming to stay under 300 MB, and faulted every trimmed page back
/// (`docs/performance.md`, "The allocator").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read at its start (`MALLOC_CONF` in the
/// environment still overrides them): freed pages are given back after
/// 1 s by a thread of its own. By its default decay (10 s, and only when
/// a thread allocates) a 10^8-row scan still held the writer's freed
/// buffers while the grouping after the scan allocated its own, and
/// peaked past 300 MB (docs/performance.md, "the allocator").
#[cfg(not(target_env = "msvc"))]
#[unsafe(export_name = "malloc_conf")]
static MALLOC_CONF: Conf = Conf(c"background_thread:true,dirty_decay_ms:1000".as_ptr());

/// A C string's address, which jemalloc reads as `const char *`.
#[cfg(not(target_env = "msvc"))]
#[repr(transparent)]
struct Conf(*const std::ffi::c_char);

// SAFETY: the address of a string literal, never written.
#[cfg(not(target_env = "msvc"))]
unsafe impl Sync for Conf {}

fn main() -> std::process::ExitCode {
    hdlscan::tune_process();
    cli::main()
}
