//! The `hdlscan` command: a thin shell over the library's `cli` module.

fn main() -> std::process::ExitCode {
    hdlscan::cli::main()
}
