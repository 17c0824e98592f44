//! The `hdlscan` command: a thin shell over the library's `cli` module.

fn main() -> std::process::ExitCode {
    bound_heap_growth();
    hdlscan::cli::main()
}

/// glibc raises its mmap threshold as large blocks are freed, after which
/// Arrow buffers come from the heap, are freed on another thread, and
/// fragment it: peak RSS of a 10M-row CSV-to-Parquet scan grew to 370 MB
/// (1M rows: 243 MB). A fixed 256 KiB threshold returns every large buffer
/// to the system when it is freed: 175 MB and 141 MB. See README "Performance".
fn bound_heap_growth() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator tunable; it is called before
    // any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 10);
    }
}
