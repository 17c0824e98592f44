//! The limit on open files. Grouping duplicates that spill holds a
//! temporary file per partition (512 unless told: `dups::Options`), and a
//! diff that spills two per partition (128), besides the inputs and the
//! output: more than the soft limit many systems start a process with
//! (256 on macOS, 1024 on Linux, less in some containers), though their
//! hard limit allows far more. [`raise`], called once by the command at
//! start, lifts the soft limit to the hard one, as a program that needs
//! many files should; [`spill_files`] says how many files a spill may hold
//! when even that is low, or when the library runs in a process that kept
//! a low limit.

/// The limits on open files, when they can be read.
#[cfg(unix)]
fn limits() -> Option<libc::rlimit> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `r` is a valid `rlimit` for the call to write.
    (unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } == 0).then_some(r)
}

/// Raises the soft limit on open files to the hard limit (on macOS, to at
/// most `OPEN_MAX`, which its kernel enforces whatever the hard limit
/// says). Nothing happens where the limits cannot be read or set.
pub fn raise() {
    #[cfg(unix)]
    if let Some(mut r) = limits().filter(|r| r.rlim_cur < r.rlim_max) {
        let hard = r.rlim_max;
        r.rlim_cur = hard;
        // SAFETY: `r` is a valid `rlimit` for the calls to read.
        unsafe {
            if libc::setrlimit(libc::RLIMIT_NOFILE, &r) != 0 {
                // macOS: OPEN_MAX.
                r.rlim_cur = hard.min(10_240);
                libc::setrlimit(libc::RLIMIT_NOFILE, &r);
            }
        }
    }
}

/// The soft limit on open files; `None` when there is none or it cannot
/// be read.
fn soft_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        // `rlim_t` is narrower than `u64` on some 32-bit systems.
        #[allow(clippy::unnecessary_cast)]
        limits()
            .filter(|r| r.rlim_cur != libc::RLIM_INFINITY)
            .map(|r| r.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    None
}

/// Files a process keeps besides a spill's: its inputs and outputs, the
/// standard streams, a split's few per thread.
const RESERVED: u64 = 64;

/// How many temporary files a spill may hold open at once: `wanted`, or,
/// under a low limit, half of what the limit leaves past `RESERVED` (at
/// least 2). Fewer partitions only cost a spill more splitting.
pub(super) fn spill_files(wanted: usize) -> usize {
    match soft_limit() {
        Some(limit) => wanted.min((limit.saturating_sub(RESERVED) / 2) as usize).max(2),
        None => wanted,
    }
}
