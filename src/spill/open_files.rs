//! The limit on open files. A spill holds one temporary file whatever its
//! partitions, but a run holds its inputs, outputs, reports and spills at
//! once, and some systems start a process with a low soft limit (256 on
//! macOS, less in some containers), though their hard limit allows far
//! more. [`raise`], called once by the command at start, lifts the soft
//! limit to the hard one, as a program that may need many files should.

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
