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

fn main() -> std::process::ExitCode {
    hdlscan::tune_process();
    cli::main()
}
