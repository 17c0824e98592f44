//! Atomic output files.
//!
//! [`AtomicFile::create`] opens a hidden temporary file *beside* the target
//! (same directory, so the final `rename` never crosses a file system):
//! `.NAME.hdlscan-tmp.PID` (with a `.N` counter appended if that name is
//! taken). Everything is written there; [`AtomicFile::commit`] flushes,
//! `fsync`s the file, renames it onto the target and (best effort) `fsync`s
//! the directory. Until then the target is untouched: a reader never sees a
//! half-written output, and an existing file is only replaced by a complete
//! one.
//!
//! Dropping an `AtomicFile` without committing (an error, a panic unwinding)
//! removes the temporary file. Every live temporary path is also kept in a
//! process-wide registry so that an interrupt handler can call
//! [`remove_all_temp_files`] before exiting (the drop code never runs then).
//!
//! A symlink at the target path is replaced by the new regular file (the
//! link's destination is not written through), like `mv` would do.
//!
//! The target `-` is stdout: the temporary file is then made in the
//! temporary folder (`$TMPDIR`), and the commit copies it to stdout, so a
//! run that fails writes nothing there either.
//!
//! A run killed hard (SIGKILL, out of memory) runs neither, and leaves its
//! temporary files. The first `AtomicFile` a run creates in a folder
//! removes those there whose PID names no live process.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Result, bail};

/// Live temporary files of this process (created, neither committed nor
/// removed yet).
static TEMP_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn registry() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while holding the lock cannot leave the Vec inconsistent.
    TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner())
}

fn unregister(path: &Path) {
    let mut reg = registry();
    if let Some(i) = reg.iter().rposition(|p| p == path) {
        reg.swap_remove(i);
    }
}

/// Removes every temporary output file this process still has open or
/// unfinished, and forgets them. Returns how many files were removed.
///
/// Meant for an interrupt (SIGINT/SIGTERM) handler that runs on an ordinary
/// thread (as `ctrlc` and `signal-hook`'s iterator do) right before
/// `process::exit`: it takes a mutex, so it must not be called from an
/// async-signal context. Later drops of the corresponding [`AtomicFile`]s
/// are harmless.
pub fn remove_all_temp_files() -> usize {
    // Renames under way finish first (see `commit_all`).
    let _renaming = COMMITTING.lock().unwrap_or_else(|e| e.into_inner());
    let paths: Vec<PathBuf> = std::mem::take(&mut *registry());
    paths.iter().filter(|p| fs::remove_file(p).is_ok()).count()
}

#[cfg(test)]
/// Snapshot of the registry (for tests and diagnostics).
pub fn live_temp_files() -> Vec<PathBuf> {
    registry().clone()
}

/// The OS reason of an I/O error, as in "permission denied" (no
/// "(os error 13)" suffix, lower-case first letter). Too many open files
/// says what to do: only a limit the process cannot raise itself
/// (`spill::raise_open_files`) gets here.
pub fn os_reason(e: &io::Error) -> String {
    let s = e.to_string();
    let s = s.split_once(" (os error ").map_or(s.as_str(), |(reason, _)| reason);
    let mut chars = s.chars();
    let reason = match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    };
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::EMFILE) {
        return format!("{reason} (the hard limit on open files is too low: raise it, as with `ulimit -n 1024`)");
    }
    reason
}

/// Fails when `target` is the same file as one of `inputs` (same device and
/// inode, so hard links and symlinks are caught too). Inputs that don't
/// exist (e.g. `-` for stdin) are skipped, as is a target that doesn't exist
/// yet.
pub fn check_not_an_input(target: &Path, inputs: &[&Path]) -> Result<()> {
    if fs::metadata(target).is_err() {
        return Ok(());
    }
    if let Some(input) = inputs.iter().find(|i| fs::metadata(i).is_ok() && same_target(target, i)) {
        bail!(
            "refusing to write output {}: it is the same file as input {}",
            target.display(),
            input.display()
        );
    }
    Ok(())
}

/// True when `a` and `b` name the same file once `.`, `..` and symlinks
/// are resolved (or are hard links to one file), whether or not it exists
/// yet: then its directory is resolved and the name joined.
pub fn same_target(a: &Path, b: &Path) -> bool {
    if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b))
        && same_file(&x, &y)
    {
        return true;
    }
    fn resolve(p: &Path) -> Option<PathBuf> {
        if let Ok(c) = fs::canonicalize(p) {
            return Some(c);
        }
        Some(fs::canonicalize(dir_of(p)).ok()?.join(p.file_name()?))
    }
    match (resolve(a), resolve(b)) {
        (Some(x), Some(y)) => x == y,
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// The directory `p` is in: its parent, or `.` for a bare name.
fn dir_of(p: &Path) -> &Path {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_a: &fs::Metadata, _b: &fs::Metadata) -> bool {
    false // canonicalized paths are compared instead
}

/// An output file written under a temporary name and renamed onto its
/// target by [`commit`](Self::commit). See the module doc.
///
/// Implements [`Write`] (buffered); write errors are plain `io::Error`s,
/// callers add the target's name (see [`AtomicFile::target`]).
#[derive(Debug)]
pub struct AtomicFile {
    out: Option<BufWriter<File>>,
    tmp: PathBuf,
    target: PathBuf,
}

const BUF_CAPACITY: usize = 1 << 20;

/// Whether `target` is `-`, stdout.
pub fn is_stdout(target: &Path) -> bool {
    target.as_os_str() == "-"
}

impl AtomicFile {
    /// Creates the temporary file beside `target`, after checking that
    /// `target` is not one of `inputs`.
    ///
    /// Errors: "refusing to write output X: it is the same file as input Y",
    /// "cannot create output in DIR: permission denied" and the like.
    pub fn create(target: &Path, inputs: &[&Path]) -> Result<AtomicFile> {
        if is_stdout(target) {
            return AtomicFile::create_in(&std::env::temp_dir(), "stdout".as_ref(), target);
        }
        check_not_an_input(target, inputs)?;
        let Some(name) = target.file_name() else {
            bail!("output path {} does not name a file", target.display());
        };
        match fs::metadata(target) {
            Ok(m) if m.is_dir() => bail!("output path {} is a directory", target.display()),
            // Renaming onto a device (`/dev/full`, `/dev/stdout`) or a FIFO
            // would replace the node itself, not write into it.
            Ok(m) if !m.is_file() => {
                bail!(
                    "output path {} exists and is not a regular file; refusing to replace it",
                    target.display()
                )
            }
            _ => {}
        }
        AtomicFile::create_in(dir_of(target), name, target)
    }

    /// The temporary file `.NAME.hdlscan-tmp.PID` in `dir`, for `target`.
    fn create_in(dir: &Path, name: &std::ffi::OsStr, target: &Path) -> Result<AtomicFile> {
        sweep_stale_once(dir);
        let pid = std::process::id();
        let mut attempt = 0u32;
        loop {
            let mut tmp_name = std::ffi::OsString::from(".");
            tmp_name.push(name);
            tmp_name.push(format!(".hdlscan-tmp.{pid}"));
            if attempt > 0 {
                tmp_name.push(format!(".{attempt}"));
            }
            let tmp = dir.join(&tmp_name);
            match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(file) => {
                    registry().push(tmp.clone());
                    // Keep the mode of a file being replaced (best effort).
                    if let Ok(m) = fs::metadata(target)
                        && !is_stdout(target)
                    {
                        let _ = fs::set_permissions(&tmp, m.permissions());
                    }
                    return Ok(AtomicFile {
                        out: Some(BufWriter::with_capacity(BUF_CAPACITY, file)),
                        tmp,
                        target: target.to_path_buf(),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => {
                    attempt += 1;
                }
                Err(e) => bail!("cannot create output in {}: {}", dir.display(), os_reason(&e)),
            }
        }
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary path being written.
    pub fn temp_path(&self) -> &Path {
        &self.tmp
    }

    /// Flushes and `fsync`s what was written so far, leaving the file open
    /// and uncommitted: the commit's own `fsync` then finds little left to
    /// write, so a writer thread can wait for the disk while other threads
    /// go on. Errors are plain `io::Error`s, like those of `write`.
    pub fn sync_now(&mut self) -> io::Result<()> {
        let out = self.out.as_mut().expect("AtomicFile used after commit");
        out.flush()?;
        out.get_ref().sync_all()
    }

    /// Flushes, `fsync`s and renames the file onto its target; see
    /// [`commit_all`].
    pub fn commit(self) -> Result<()> {
        commit_all(vec![self])
    }

    /// Flushes and `fsync`s the temporary file: what can fail for lack of
    /// space, done before any target is touched.
    fn sync(mut self) -> Result<Synced> {
        let out = self.out.take().expect("AtomicFile used after commit");
        let target = self.target.display().to_string();
        let file = out
            .into_inner()
            .map_err(|e| anyhow::anyhow!("writing {target}: {}", os_reason(e.error())))?;
        file.sync_all()
            .map_err(|e| anyhow::anyhow!("writing {target}: {}", os_reason(&e)))?;
        // The temporary file now belongs to `Synced` (and its drop).
        let tmp = std::mem::take(&mut self.tmp);
        Ok(Synced {
            tmp,
            target: std::mem::take(&mut self.target),
        })
    }
}

/// Folders already swept by this process: one sweep per folder per run.
static SWEPT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn sweep_stale_once(dir: &Path) {
    let key = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
    if !swept.contains(&key) {
        swept.push(key);
        sweep_stale(dir);
    }
}

/// Removes the temporary files in `dir` left by runs whose process is
/// gone. Only regular files named as [`AtomicFile::create`] names them are
/// considered, and one whose process is alive (or cannot be checked) is
/// kept. Silent: the files are this tool's own hidden debris of a run that
/// already failed, and a file that cannot be removed changes nothing.
fn sweep_stale(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let stale = e.file_type().is_ok_and(|t| t.is_file())
            && e.file_name()
                .to_str()
                .and_then(temp_pid)
                .is_some_and(|pid| !process_alive(pid));
        if stale {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The PID in a temporary file's name, `.NAME.hdlscan-tmp.PID[.N]`.
fn temp_pid(name: &str) -> Option<u32> {
    const MARK: &str = ".hdlscan-tmp.";
    let at = name.rfind(MARK).filter(|&i| i > 1 && name.starts_with('.'))?;
    let rest = &name[at + MARK.len()..];
    let (pid, counter) = rest.split_once('.').map_or((rest, None), |(pid, n)| (pid, Some(n)));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(pid) || !counter.is_none_or(digits) {
        return None;
    }
    pid.parse().ok()
}

/// Whether `pid` may name a live process. `kill(pid, 0)` sends nothing; it
/// fails with ESRCH only when no such process exists (EPERM means it
/// exists under another user), the same answer as `/proc/PID` on Linux
/// without needing `/proc` mounted. Elsewhere no file is ever judged stale.
#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    // 0 and negative numbers address process groups, not a process.
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return true;
    }
    // SAFETY: signal 0 only checks that `pid` exists and may be signalled.
    let ok = unsafe { libc::kill(pid, 0) } == 0;
    ok || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    true
}

/// Held while committed files are renamed onto their targets, so that an
/// interrupt handler (`remove_all_temp_files`) sees all of them renamed or
/// none.
static COMMITTING: Mutex<()> = Mutex::new(());

/// Set once any target was replaced: an interrupt after that point must not
/// claim that nothing was written.
static COMMITTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// True when this process has renamed a finished file onto its target.
pub fn committed_any() -> bool {
    COMMITTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Commits `files` as one step: each is flushed and `fsync`ed first, so a
/// full disk fails before any target changes (the temporary files are then
/// removed); then all are renamed, in order, with an interrupt held off
/// until the last rename, so a run that writes an output and a report
/// leaves both or neither.
pub fn commit_all(files: Vec<AtomicFile>) -> Result<()> {
    let synced = files.into_iter().map(AtomicFile::sync).collect::<Result<Vec<_>>>()?;
    let _renaming = COMMITTING.lock().unwrap_or_else(|e| e.into_inner());
    for s in synced {
        s.rename()?;
        COMMITTED.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    Ok(())
}

/// A temporary file complete on disk, waiting for its rename; dropping it
/// removes the file.
struct Synced {
    tmp: PathBuf,
    target: PathBuf,
}

impl Synced {
    fn rename(mut self) -> Result<()> {
        if is_stdout(&self.target) {
            // Dropping `self` then removes the file.
            let mut f =
                File::open(&self.tmp).map_err(|e| anyhow::anyhow!("reading back the output: {}", os_reason(&e)))?;
            let mut out = io::stdout().lock();
            io::copy(&mut f, &mut out).and_then(|_| out.flush())?;
            return Ok(());
        }
        let target = self.target.display().to_string();
        fs::rename(&self.tmp, &self.target)
            .map_err(|e| anyhow::anyhow!("cannot rename output onto {target}: {}", os_reason(&e)))?;
        unregister(&self.tmp);
        // Make the rename itself durable (best effort; not possible everywhere).
        #[cfg(unix)]
        if let Ok(d) = File::open(dir_of(&self.target)) {
            let _ = d.sync_all();
        }
        self.tmp = PathBuf::new(); // nothing left for Drop to remove
        Ok(())
    }
}

impl Drop for Synced {
    fn drop(&mut self) {
        if !self.tmp.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.tmp);
            unregister(&self.tmp);
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.as_mut().expect("AtomicFile used after commit").write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.as_mut().expect("AtomicFile used after commit").write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().expect("AtomicFile used after commit").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.tmp.as_os_str().is_empty() {
            return;
        }
        // Don't flush a BufWriter into a file we are about to delete.
        if let Some(out) = self.out.take() {
            let (file, _unflushed) = out.into_parts();
            drop(file);
        }
        let _ = fs::remove_file(&self.tmp);
        unregister(&self.tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_renames_and_drop_removes() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.csv");
        let mut f = AtomicFile::create(&target, &[]).unwrap();
        let tmp = f.temp_path().to_path_buf();
        assert!(
            tmp.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(".out.csv.hdlscan-tmp.")
        );
        assert_eq!(tmp.parent(), target.parent());
        f.write_all(b"hello").unwrap();
        assert!(tmp.exists());
        assert!(!target.exists());
        assert!(live_temp_files().contains(&tmp));
        f.commit().unwrap();
        assert!(!tmp.exists());
        assert_eq!(fs::read(&target).unwrap(), b"hello");
        assert!(!live_temp_files().contains(&tmp));

        // Replace an existing file; drop without commit keeps the old one.
        let mut g = AtomicFile::create(&target, &[]).unwrap();
        g.write_all(b"partial").unwrap();
        let tmp = g.temp_path().to_path_buf();
        drop(g);
        assert!(!tmp.exists());
        assert!(!live_temp_files().contains(&tmp));
        assert_eq!(fs::read(&target).unwrap(), b"hello");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn removed_on_panic_unwind() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("x.parquet");
        let t2 = target.clone();
        let r = std::panic::catch_unwind(move || {
            let mut f = AtomicFile::create(&t2, &[]).unwrap();
            f.write_all(b"data").unwrap();
            f.flush().unwrap();
            panic!("boom");
        });
        assert!(r.is_err());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn two_temp_files_for_one_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("o.csv");
        let a = AtomicFile::create(&target, &[]).unwrap();
        let b = AtomicFile::create(&target, &[]).unwrap();
        assert_ne!(a.temp_path(), b.temp_path());
        b.commit().unwrap();
        drop(a);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// `remove_all_temp_files` removes the temp files of every test running
    /// concurrently, so it runs in a child process (this test binary again,
    /// filtered to the ignored test below).
    #[test]
    fn registry_cleanup() {
        let dir = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "io::atomic::tests::registry_cleanup_child",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("HDLSCAN_REGISTRY_CHILD_DIR", dir.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("1 passed"), "{stdout}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    #[ignore = "run by registry_cleanup in a child process"]
    fn registry_cleanup_child() {
        let Some(dir) = std::env::var_os("HDLSCAN_REGISTRY_CHILD_DIR") else {
            return;
        };
        let dir = PathBuf::from(dir);
        let mut f = AtomicFile::create(&dir.join("r.csv"), &[]).unwrap();
        f.write_all(b"x").unwrap();
        let g = AtomicFile::create(&dir.join("s.csv"), &[]).unwrap();
        let (tf, tg) = (f.temp_path().to_path_buf(), g.temp_path().to_path_buf());
        assert!(tf.exists() && tg.exists());
        assert_eq!(live_temp_files().len(), 2);
        assert_eq!(remove_all_temp_files(), 2);
        assert!(!tf.exists() && !tg.exists());
        assert!(live_temp_files().is_empty());
        drop(f); // harmless after the registry removed it
        assert!(g.commit().is_err()); // its file is gone
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    }

    #[test]
    fn temp_file_names() {
        let pid = |name| temp_pid(name);
        assert_eq!(pid(".out.csv.hdlscan-tmp.123"), Some(123));
        assert_eq!(pid(".out.csv.hdlscan-tmp.123.4"), Some(123));
        assert_eq!(pid(".a.hdlscan-tmp.b.hdlscan-tmp.7"), Some(7));
        for other in [
            "out.csv.hdlscan-tmp.123",
            "..hdlscan-tmp.123",
            ".out.csv.hdlscan-tmp.",
            ".out.csv.hdlscan-tmp.12x",
            ".out.csv.hdlscan-tmp.12.",
            ".out.csv.hdlscan-tmp.12.3.4",
            ".out.csv.hdlscan-tmp.99999999999",
            ".out.csv",
        ] {
            assert_eq!(pid(other), None, "{other}");
        }
    }

    #[test]
    fn refuses_to_overwrite_an_input() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.csv");
        fs::write(&input, "a\n1\n").unwrap();
        let err = AtomicFile::create(&input, &[&input]).unwrap_err().to_string();
        assert!(err.contains("same file as input"), "{err}");
        // Through another spelling of the path.
        let other = dir.path().join(".").join("in.csv");
        let err = AtomicFile::create(&other, &[&input]).unwrap_err().to_string();
        assert!(err.contains("same file as input"), "{err}");
        // Through a hard link.
        let link = dir.path().join("link.csv");
        fs::hard_link(&input, &link).unwrap();
        assert!(AtomicFile::create(&link, &[&input]).is_err());
        #[cfg(unix)]
        {
            let sym = dir.path().join("sym.csv");
            std::os::unix::fs::symlink(&input, &sym).unwrap();
            assert!(AtomicFile::create(&sym, &[&input]).is_err());
        }
        // A different file is fine; a missing input is skipped.
        let out = dir.path().join("out.csv");
        fs::write(&out, "old").unwrap();
        let f = AtomicFile::create(&out, &[&input, Path::new("-")]).unwrap();
        drop(f);
        assert_eq!(fs::read_to_string(&input).unwrap(), "a\n1\n");
    }

    #[test]
    fn unwritable_directory() {
        let err = AtomicFile::create(Path::new("/nonexistent-dir-hdlscan/out.csv"), &[])
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "cannot create output in /nonexistent-dir-hdlscan: no such file or directory"
        );
        let dir = tempfile::tempdir().unwrap();
        let err = AtomicFile::create(dir.path(), &[]).unwrap_err().to_string();
        assert!(err.contains("is a directory") || err.contains("does not name"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn read_only_directory() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let ro = dir.path().join("ro");
        fs::create_dir(&ro).unwrap();
        fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
        let target = ro.join("out.csv");
        let res = AtomicFile::create(&target, &[]);
        // root ignores directory permissions; only check when they apply.
        let probe = fs::write(ro.join("probe"), "x");
        if probe.is_ok() {
            eprintln!("skipping read-only check: running with CAP_DAC_OVERRIDE (root)");
            let _ = fs::remove_file(ro.join("probe"));
        } else {
            let err = res.unwrap_err().to_string();
            assert_eq!(
                err,
                format!("cannot create output in {}: permission denied", ro.display())
            );
            assert_eq!(fs::read_dir(&ro).unwrap().count(), 0);
        }
        fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn os_reason_format() {
        let e = io::Error::from_raw_os_error(28);
        assert_eq!(os_reason(&e), "no space left on device");
        let e = io::Error::other("Custom thing");
        assert_eq!(os_reason(&e), "custom thing");
        #[cfg(unix)]
        assert!(
            os_reason(&io::Error::from_raw_os_error(libc::EMFILE)).starts_with("too many open files (the hard limit"),
            "{}",
            os_reason(&io::Error::from_raw_os_error(libc::EMFILE))
        );
    }
}
