//! The `hdlscan` command: a thin shell over the library's `cli` module.

fn main() -> std::process::ExitCode {
    hdlscan::heap::configure();
    hdlscan::open_files::raise();
    hdlscan::cli::main()
}
