//! The `hdlscan` command: the command line ([`cli`]: arguments, exit
//! statuses) over the library's public API, which knows nothing of it.

mod cli;

fn main() -> std::process::ExitCode {
    hdlscan::tune_process();
    cli::main()
}
