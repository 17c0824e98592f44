//! `hdlscan scan` when the world fails under it: SIGINT/SIGTERM in the
//! middle of a run, an input that breaks off half-way, an output file system
//! that fills up or is read-only. Every case must end with a clear message
//! and exit status, and leave neither the output nor a temporary file.
//!
//! The file-system cases mount a tmpfs inside the test's tempdir, which
//! needs root (CAP_SYS_ADMIN); without it they print a note and pass.
//!
//! Run: `cargo test --test tests faults`

use crate::scan::{Run, SAMPLE_ID, entries, scan, write_synth_csv};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A tempdir with an empty `out/`.
fn tempdir_with_out() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("out")).unwrap();
    dir
}

/// Names in `dir` that are hdlscan temporary files.
fn temp_files(dir: &Path) -> Vec<String> {
    entries(dir)
        .into_iter()
        .filter(|n| n.contains(".hdlscan-tmp"))
        .collect()
}

// ---------------------------------------------------------------------------
// Signals

/// Starts `scan big.csv -o out/OUTPUT`, interrupted mid-run by
/// `interrupt_command`.
fn interrupt_mid_run(dir: &Path, output: &str, signal: &str) -> Run {
    let target = format!("out/{output}");
    let args = [
        "scan",
        "big.csv",
        "-c",
        SAMPLE_ID,
        "-o",
        &target,
        "--report",
        "out/r.json",
        "-q",
    ];
    interrupt_command(dir, &args, output, signal)
}

/// A CSV big enough that a scan runs for a second or more: debug builds
/// (`cargo test`, CI) are some ten times slower than release builds.
fn big_input(dir: &Path) {
    let rows = if cfg!(debug_assertions) { 150_000 } else { 2_000_000 };
    write_synth_csv(&dir.join("big.csv"), rows, 11);
}

#[track_caller]
fn check_interrupted(dir: &Path, run: &Run, signal: &str) {
    assert!(!run.stderr.contains("panicked"), "panic:\n{}", run.stderr);
    assert_eq!(run.code, 130, "SIG{signal}: exit status; stderr:\n{}", run.stderr);
    assert!(run.stderr.contains("interrupted"), "SIG{signal}: {}", run.stderr);
    let left = entries(&dir.join("out"));
    assert!(left.is_empty(), "SIG{signal} left {left:?}");
}

#[test]
fn sigint_mid_run_leaves_nothing() {
    let dir = tempdir_with_out();
    big_input(dir.path());
    let run = interrupt_mid_run(dir.path(), "out.parquet", "INT");
    check_interrupted(dir.path(), &run, "INT");
}

#[test]
fn sigterm_mid_run_leaves_nothing() {
    let dir = tempdir_with_out();
    big_input(dir.path());
    let run = interrupt_mid_run(dir.path(), "out.parquet", "TERM");
    check_interrupted(dir.path(), &run, "TERM");
    // The same with CSV output (another sink).
    let run = interrupt_mid_run(dir.path(), "out.csv", "TERM");
    check_interrupted(dir.path(), &run, "TERM");
}

/// An interrupted run must not touch an output that already exists.
#[test]
fn sigint_keeps_an_existing_output() {
    let dir = tempdir_with_out();
    big_input(dir.path());
    fs::write(dir.path().join("out/out.csv"), "old,output\n").unwrap();
    let run = interrupt_mid_run(dir.path(), "out.csv", "INT");
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert_eq!(entries(&dir.path().join("out")), ["out.csv"]);
    assert_eq!(
        fs::read_to_string(dir.path().join("out/out.csv")).unwrap(),
        "old,output\n"
    );
}

/// A run killed hard (SIGKILL, out of memory) runs no handler and leaves its
/// temporary files; the next run into that folder removes those whose
/// process is gone, and only those.
#[test]
fn next_run_removes_what_a_killed_run_left() {
    let dir = tempdir_with_out();
    let out = dir.path().join("out");
    // Above any pid_max: no process has this PID.
    let dead = i32::MAX;
    let live = std::process::id();
    let left = [
        format!(".out.csv.hdlscan-tmp.{dead}"),
        format!(".r.json.hdlscan-tmp.{dead}.1"),
    ];
    let kept = [
        format!(".out.csv.hdlscan-tmp.{live}"),
        format!("notes.hdlscan-tmp.{dead}"),
    ];
    for name in left.iter().chain(&kept) {
        fs::write(out.join(name), "partial").unwrap();
    }
    let sample = crate::scan::sample();
    let args = [crate::scan::p(&sample), "-c", SAMPLE_ID, "-o", "out/out.csv", "-q"];
    let run = scan(dir.path(), &args).ok();
    assert!(run.stdout.is_empty() && run.stderr.is_empty(), "{}", run.stderr);
    let mut want = vec!["out.csv".to_string()];
    want.extend(kept);
    want.sort();
    assert_eq!(entries(&out), want);
}

// ---------------------------------------------------------------------------
// An input that breaks off half-way

/// `read error in record N (byte B)` → (N, B).
fn record_and_byte(msg: &str) -> (u64, u64) {
    let rest = msg
        .split("read error in record ")
        .nth(1)
        .unwrap_or_else(|| panic!("no record in {msg:?}"));
    let (rec, rest) = rest
        .split_once(" (byte ")
        .unwrap_or_else(|| panic!("no byte in {msg:?}"));
    let byte = rest.split_once(')').unwrap().0;
    (rec.parse().unwrap(), byte.parse().unwrap())
}

/// A gzip and a zstd stream cut in the middle: the error names the file,
/// the record being read and the byte reached (in the decompressed data),
/// and both are right.
#[test]
fn compressed_input_cut_short_names_file_record_and_byte() {
    let dir = tempdir_with_out();
    let d = dir.path();
    let mut data = b"n,id\n".to_vec();
    for i in 0..200_000u64 {
        data.extend_from_slice(format!("{i},10.{}/x{:x}\n", 1000 + i % 97, i.wrapping_mul(0x9e37_79b9)).as_bytes());
    }
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut e, &data).unwrap();
    let gz = e.finish().unwrap();
    let zst = zstd::encode_all(&data[..], 3).unwrap();
    fs::write(d.join("cut.csv.gz"), &gz[..gz.len() / 2]).unwrap();
    fs::write(d.join("cut.csv.zst"), &zst[..zst.len() / 2]).unwrap();
    for (name, out) in [("cut.csv.gz", "out/o.parquet"), ("cut.csv.zst", "out/o.csv")] {
        let msg = scan(d, &[name, "-c", "id", "-o", out, "--report", "out/r.json", "-q"]).fails_with(&[
            name,
            "read error in record",
            "byte",
        ]);
        let (record, byte) = record_and_byte(&msg);
        assert!(byte > 0 && byte < data.len() as u64, "{msg}");
        // The header is line 1: the record being read is the one after the
        // last complete line.
        let newlines = memchr::memchr_iter(b'\n', &data[..byte as usize]).count() as u64;
        assert_eq!(record, newlines, "{msg}");
        let left = entries(&d.join("out"));
        assert!(left.is_empty(), "{name}: left {left:?}");
    }
}

/// What a run writes is checked before any work: an output, report or
/// duplicates file naming an input, under any spelling, or a report naming
/// the output, is the command line naming one file twice, a usage error
/// (2) with nothing written; a report that cannot be written leaves no
/// output behind.
#[test]
fn report_never_replaces_an_input_or_the_output() {
    let dir = tempdir_with_out();
    let d = dir.path();
    let input = d.join("in.csv");
    fs::copy(crate::scan::sample(), &input).unwrap();
    let before = fs::read(&input).unwrap();
    for (flag, target) in [
        ("-o", "in.csv"),
        ("-o", "./in.csv"),
        ("-o", "out/../in.csv"),
        ("--report", "in.csv"),
        ("--duplicates", "./in.csv"),
    ] {
        scan(d, &["in.csv", "-c", SAMPLE_ID, flag, target, "-q"]).usage_error(&[
            &format!("{flag}: refusing to write output {target}"),
            "same file as input in.csv",
        ]);
        assert_eq!(fs::read(&input).unwrap(), before, "{flag} {target} replaced the input");
        assert_eq!(entries(d), ["in.csv", "out"], "{flag} {target}");
    }
    let with_report =
        |output: &str, report: &str| scan(d, &["in.csv", "-c", SAMPLE_ID, "-o", output, "--report", report, "-q"]);
    with_report("out/o.parquet", "out/./o.parquet")
        .usage_error(&["--report", "names the output file out/o.parquet too"]);
    // Spelled through `..`: the same file (the audit's report replaced the
    // output this way).
    with_report("out/o.csv", "out/../out/o.csv").usage_error(&["--report", "names the output file"]);
    with_report("out/o.parquet", "missing/r.json").fails_with(&["--report", "missing"]);
    let left = entries(&d.join("out"));
    assert!(left.is_empty(), "left {left:?}");
    assert_eq!(entries(d), ["in.csv", "out"]);
}

// ---------------------------------------------------------------------------
// Output file systems that fail

/// A tmpfs mounted at `path` for the life of the value.
struct Mount {
    path: PathBuf,
}

impl Mount {
    /// Mounts a tmpfs with `opts`, or prints a note and returns None when
    /// mounting is not allowed here.
    fn tmpfs(path: &Path, opts: &str, test: &str) -> Option<Mount> {
        fs::create_dir_all(path).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", opts, "tmpfs"])
            .arg(path)
            .stdin(Stdio::null())
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Mount {
                path: path.to_path_buf(),
            }),
            Ok(o) => {
                eprintln!(
                    "note: skipping {test}: mount -t tmpfs failed (needs root): {}",
                    String::from_utf8_lossy(&o.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("note: skipping {test}: cannot run mount: {e}");
                None
            }
        }
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let ok = Command::new("umount")
            .arg(&self.path)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            // Lazy, so the tempdir can still go.
            let _ = Command::new("umount").arg("-l").arg(&self.path).status();
        }
    }
}

/// Output onto a 256 KiB file system, for every output format: a clear
/// error naming the output and "no space left", exit 1, nothing left.
#[test]
fn output_onto_a_full_disk() {
    let dir = tempdir_with_out();
    let d = dir.path();
    let Some(_m) = Mount::tmpfs(&d.join("full"), "size=256k", "output_onto_a_full_disk") else {
        return;
    };
    // ~6 MB of CSV: every format's output is well over 256 KiB.
    write_synth_csv(&d.join("big.csv"), 50_000, 5);
    for out in ["full/o.csv", "full/o.parquet", "full/o.arrow", "full/o.tsv"] {
        scan(d, &["big.csv", "-c", SAMPLE_ID, "-o", out, "-q"]).fails_with(&[out, "no space left"]);
        let left = entries(&d.join("full"));
        assert!(left.is_empty(), "{out}: left {left:?}");
    }
}

/// The duplicates file onto a full file system, in every format: its
/// rows are made on a thread of their own while the file is written, and a
/// write that fails must stop both with a clear error naming the file, exit
/// 1 and nothing left (not hang, nor leave the output).
#[test]
fn duplicates_onto_a_full_disk() {
    let dir = tempdir_with_out();
    let d = dir.path();
    let Some(_m) = Mount::tmpfs(&d.join("full"), "size=64k", "duplicates_onto_a_full_disk") else {
        return;
    };
    // 50,000 rows: thousands of cluster members, well over 64 KiB in any format.
    write_synth_csv(&d.join("big.csv"), 50_000, 5);
    for dups in ["full/d.csv", "full/d.parquet", "full/d.tsv"] {
        scan(
            d,
            &["big.csv", "-c", SAMPLE_ID, "-o", "o.csv", "--duplicates", dups, "-q"],
        )
        .fails_with(&[dups, "no space left"]);
        assert!(
            entries(&d.join("full")).is_empty(),
            "{dups}: left {:?}",
            entries(&d.join("full"))
        );
        assert!(!d.join("o.csv").exists(), "{dups}: the output was committed");
    }
}

/// The report onto a full disk (filled up by a filler file first): a clear
/// error, no report and no temporary file.
#[test]
fn report_onto_a_full_disk() {
    let dir = tempdir_with_out();
    let d = dir.path();
    let Some(_m) = Mount::tmpfs(&d.join("full"), "size=64k", "report_onto_a_full_disk") else {
        return;
    };
    fs::write(d.join("in.csv"), "a,id\n1,10.1/x\n2,hdl:1/2\n").unwrap();
    // Fill it up to the last byte.
    {
        let mut f = fs::File::create(d.join("full/filler")).unwrap();
        let chunk = [0u8; 4096];
        while std::io::Write::write_all(&mut f, &chunk).is_ok() {}
        while std::io::Write::write_all(&mut f, &chunk[..1]).is_ok() {}
    }
    scan(d, &["in.csv", "-c", "id", "--report", "full/r.json", "-q"]).fails_with(&["full/r.json", "no space left"]);
    assert_eq!(entries(&d.join("full")), ["filler"]);
}

/// Output (and report) into a read-only file system: a clear error naming
/// the directory, exit 1, nothing left anywhere. (chmod does not stop root;
/// a read-only mount does.)
#[test]
fn output_onto_a_read_only_file_system() {
    let dir = tempdir_with_out();
    let d = dir.path();
    let Some(_m) = Mount::tmpfs(&d.join("ro"), "ro", "output_onto_a_read_only_file_system") else {
        return;
    };
    fs::write(d.join("in.csv"), "a,id\n1,10.1/x\n").unwrap();
    scan(d, &["in.csv", "-c", "id", "-o", "ro/o.parquet", "-q"]).fails_with(&["ro", "read-only file system"]);
    // Output fine, report refused: the run fails.
    scan(
        d,
        &["in.csv", "-c", "id", "-o", "out/o.csv", "--report", "ro/r.json", "-q"],
    )
    .fails_with(&["ro", "read-only file system"]);
    assert!(entries(&d.join("ro")).is_empty());
    assert!(temp_files(&d.join("out")).is_empty());
}

/// `hdlscan scan` with stdout and stderr sent to `stdout` / `stderr`.
fn scan_to(d: &Path, args: &[&str], stdout: Stdio, stderr: Stdio) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .current_dir(d)
        .arg("scan")
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn dev_full() -> Option<fs::File> {
    fs::OpenOptions::new().write(true).open("/dev/full").ok()
}

/// A report that cannot be written fails the run before the output is put
/// in place: the output and the report are committed together.
#[test]
fn unwritable_report_leaves_no_output() {
    let Some(full) = dev_full() else {
        eprintln!("note: no /dev/full, skipped");
        return;
    };
    let dir = tempdir_with_out();
    let d = dir.path();
    fs::copy(crate::scan::sample(), d.join("in.csv")).unwrap();
    let args = ["in.csv", "-c", SAMPLE_ID, "-o", "out/o.csv", "--report", "-", "-q"];
    let (code, stderr) = scan_to(d, &args, Stdio::from(full), Stdio::piped());
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("writing the report to stdout"), "{stderr}");
    let left = entries(&d.join("out"));
    assert!(left.is_empty(), "left {left:?}");
}

/// A closed or full stderr costs the messages, not the run: no panic, and
/// the exit status still tells success from failure.
#[test]
fn full_stderr_does_not_panic() {
    let (Some(a), Some(b)) = (dev_full(), dev_full()) else {
        eprintln!("note: no /dev/full, skipped");
        return;
    };
    let dir = tempdir_with_out();
    let d = dir.path();
    fs::copy(crate::scan::sample(), d.join("in.csv")).unwrap();
    let (code, _) = scan_to(
        d,
        &["in.csv", "-c", SAMPLE_ID, "-o", "out/o.csv"],
        Stdio::null(),
        Stdio::from(a),
    );
    assert_eq!(code, 0);
    assert_eq!(entries(&d.join("out")), ["o.csv"]);
    let (code, _) = scan_to(d, &["nope.csv", "-c", SAMPLE_ID], Stdio::null(), Stdio::from(b));
    assert_eq!(code, 1);
}

/// A reader that stops reading the report (`--report - | head`) does not
/// cost the output: exit 0, output in place.
#[test]
fn closed_report_pipe_keeps_the_output() {
    let dir = tempdir_with_out();
    let d = dir.path();
    fs::copy(crate::scan::sample(), d.join("in.csv")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .current_dir(d)
        .args([
            "scan",
            "in.csv",
            "-c",
            SAMPLE_ID,
            "-o",
            "out/o.csv",
            "--report",
            "-",
            "-q",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end before the report is written (the scan runs first).
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(entries(&d.join("out")), ["o.csv"]);
}

// ---------------------------------------------------------------------------
// `gen` interrupted

/// Runs `hdlscan ARGS`, which writes `out/OUTPUT`; waits until its
/// temporary file exists (the run is writing), lets it write, sends
/// `signal` with kill(1), and returns the finished run. Fails if the run
/// ends before it could be interrupted, or does not end within 30 s of
/// the signal (a hang).
fn interrupt_command(dir: &Path, args: &[&str], output: &str, signal: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hdlscan"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let tmp_prefix = format!(".{output}.hdlscan-tmp.");
    let start = Instant::now();
    while !entries(&dir.join("out")).iter().any(|n| n.starts_with(&tmp_prefix)) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "{args:?} ended ({status}) before its temporary file was seen: {}",
                reader.join().unwrap()
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no temporary file after 60 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} ended before the signal; make it bigger"
    );
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal} failed");
    let signalled = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if signalled.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running 30 s after SIG{signal}: a hang");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        // Killed by the signal itself (no handler): report as 128 + N.
        code: status.code().unwrap_or_else(|| {
            use std::os::unix::process::ExitStatusExt;
            128 + status.signal().unwrap_or(0)
        }),
        stdout: Vec::new(),
        stderr: reader.join().unwrap(),
    }
}

/// `gen` cleans up on SIGINT and SIGTERM as `scan` does: its temporary
/// file (gigabytes for a big export) used to stay behind.
#[test]
fn gen_interrupted_leaves_nothing() {
    let rows = if cfg!(debug_assertions) { "1000000" } else { "3000000" };
    let dir = tempdir_with_out();
    for (output, signal) in [
        ("big.csv", "INT"),
        ("big.csv", "TERM"),
        ("big.parquet", "INT"),
        ("big.parquet", "TERM"),
    ] {
        let target = format!("out/{output}");
        let run = interrupt_command(
            dir.path(),
            &["gen", "--rows", rows, "-o", &target, "-q"],
            output,
            signal,
        );
        check_interrupted(dir.path(), &run, signal);
    }
}
