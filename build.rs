//! Marks the build `no_chromium` when no Chromium is on `PATH` and
//! `HDLSCAN_REQUIRE_CHROMIUM` is unset, so the browser test
//! (tests/browser.rs) shows as ignored in cargo's summary rather than
//! passing without a browser. Nothing else in the package reads it.

use std::env;
use std::path::PathBuf;

/// The names tests/browser.rs runs.
const BROWSERS: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_chromium)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=HDLSCAN_REQUIRE_CHROMIUM");
    let dirs: Vec<PathBuf> = env::var_os("PATH")
        .map(|p| env::split_paths(&p).filter(|d| d.is_dir()).collect())
        .unwrap_or_default();
    let found = dirs
        .iter()
        .flat_map(|d| BROWSERS.map(|b| d.join(b)))
        .find(|p| p.is_file());
    match found {
        // Uninstalling it reruns this script.
        Some(browser) => println!("cargo::rerun-if-changed={}", browser.display()),
        None => {
            // Installing one changes a directory on PATH.
            for d in &dirs {
                println!("cargo::rerun-if-changed={}", d.display());
            }
            if env::var_os("HDLSCAN_REQUIRE_CHROMIUM").is_none() {
                println!("cargo::rustc-cfg=no_chromium");
            }
        }
    }
}
