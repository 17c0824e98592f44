//! glibc heap tuning for long scans: large buffers are reused, not mapped
//! afresh, and the heap is trimmed when the process holds more memory than
//! the scan needs, so peak RSS stays bounded without paying for page faults
//! on every batch.
//!
//! Every block allocates megabytes of Arrow and Parquet buffers (the
//! Parquet encoder's page and value buffers are two thirds of all bytes
//! allocated, about 3 KB a row) that are freed on another thread once
//! written. glibc's defaults (a mmap threshold that rises as large blocks
//! are freed) let those buffers fragment the heap: a 10M-row scan peaked at
//! 370 MB. Mapping every buffer over 256 KiB fresh bounds RSS (175 MB) but
//! spends 17% of the CPU on page faults and munmap. So buffers up to 32 MiB
//! come from the heap and are reused, and [`Trimmer`] returns free pages
//! with `malloc_trim`.
//!
//! When to trim, measured on a 10M-row CSV-to-Parquet scan with 2 threads
//! (system CPU seconds, minor page faults, peak RSS): never, 1.3 s, 0.17 M,
//! 315 MB; every 128Ki rows, 4.1–6.1 s, 1.6 M, 217–236 MB; only when
//! resident memory is over 256 MiB (looked at after each batch, at most one
//! trim every 128Ki rows), 1.9–2.5 s, 0.4–0.6 M, 266–269 MB.
//! A trim releases the free pages of every arena, and the next batches
//! fault them back in one page at a time, so trimming only when over a
//! budget keeps most of the saving of never trimming. mimalloc in place of
//! glibc faulted less still (0.2 s) by keeping what it had: 337 MB; with
//! its purge delay shortened to fit the budget it faulted as much as glibc.

/// Fewest rows written between two trims: four CSV blocks of a typical
/// export, two Parquet input batches. Counted in rows, not batches, so that larger batches (Parquet input) do
/// not let more garbage pile up.
pub const TRIM_EVERY_ROWS: u64 = 128 * 1024;

/// Resident memory a scan may hold before it trims: a base plus a share per
/// worker thread, since each keeps blocks and columns in flight (a 1M-row
/// scan that trims as often as it may peaks at about 125, 195 and 310 MB
/// with 1, 2 and 8 threads). 256 MiB for 2 threads, under the 300 MB a scan
/// promises with room for one more batch's worth of growth before the next
/// look; 352 MiB for 8.
pub fn resident_budget(threads: usize) -> u64 {
    (224 << 20) + (16 << 20) * threads as u64
}

/// Sets the allocator up; call once at start-up, before other threads exist.
pub fn configure() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator tunable; no other thread runs yet.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

/// Returns the heap's free pages to the system.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim is thread-safe and only releases free memory.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// This process's resident memory in bytes (Linux: `/proc/self/statm`);
/// `None` where it cannot be read.
pub fn resident_bytes() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        use std::io::Read;
        let mut buf = [0u8; 128];
        let n = std::fs::File::open("/proc/self/statm").ok()?.read(&mut buf).ok()?;
        // "size resident shared text lib data dt", in pages.
        let pages: u64 = std::str::from_utf8(&buf[..n]).ok()?.split(' ').nth(1)?.parse().ok()?;
        // SAFETY: sysconf only reads a system constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        u64::try_from(page).ok().map(|p| pages * p)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// Decides when the writer trims: once [`TRIM_EVERY_ROWS`] rows have been
/// written since the last trim, after every batch that leaves resident
/// memory over the budget (or unreadable).
#[derive(Debug)]
pub struct Trimmer {
    budget: u64,
    since: u64,
}

impl Trimmer {
    pub fn new(threads: usize) -> Trimmer {
        Trimmer {
            budget: resident_budget(threads),
            since: 0,
        }
    }

    /// Call after a batch of `rows` rows was written and dropped. Returns
    /// whether it trimmed.
    pub fn wrote(&mut self, rows: u64) -> bool {
        self.since += rows;
        if self.since < TRIM_EVERY_ROWS || resident_bytes().is_some_and(|r| r <= self.budget) {
            return false;
        }
        trim();
        self.since = 0;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn resident_bytes_sees_memory_being_touched() {
        let before = resident_bytes().expect("statm readable on Linux");
        // 64 MiB written page by page: resident, whatever the allocator does.
        let v = vec![1u8; 64 << 20];
        let after = resident_bytes().unwrap();
        assert!(after >= before + (32 << 20), "{before} -> {after}");
        assert!(after < 1 << 40);
        drop(std::hint::black_box(v));
    }

    #[test]
    fn trimmer_trims_over_budget_at_most_once_per_interval() {
        // A budget nothing reaches: never trims.
        let mut t = Trimmer {
            budget: u64::MAX,
            since: 0,
        };
        assert!(!t.wrote(TRIM_EVERY_ROWS));
        assert!(!t.wrote(TRIM_EVERY_ROWS));
        // A budget everything exceeds: trims once the interval is reached,
        // then waits for the next.
        let mut t = Trimmer { budget: 0, since: 0 };
        assert!(!t.wrote(TRIM_EVERY_ROWS / 2));
        assert!(t.wrote(TRIM_EVERY_ROWS / 2));
        assert!(!t.wrote(TRIM_EVERY_ROWS - 1));
        assert!(t.wrote(1));
    }
}
