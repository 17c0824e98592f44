//! The `hdlscan` command: a thin shell over the library's `cli` module.

fn main() -> std::process::ExitCode {
    hdlscan::heap::configure();
    hdlscan::cli::main()
}
