//! The `hdlscan` command: the command line ([`cli`]: arguments, exit
//! statuses) over the library, which knows nothing of it.

mod cli;

// The library's modules, as `cli` names them (`crate::io`, …).
use hdlscan::{columns, diff, dups, gates, heap, id, io, open_files, pipeline, plan, report};

fn main() -> std::process::ExitCode {
    heap::configure();
    open_files::raise();
    cli::main()
}
