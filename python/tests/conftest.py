"""Helpers of the Python tests: the repository's test data, and the CLI
(built with cargo, or $HDLSCAN_BIN) to compare with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTDATA = ROOT / "testdata"


@pytest.fixture(scope="session")
def cli() -> Path:
    """The hdlscan binary: $HDLSCAN_BIN, else `cargo build --bin hdlscan`."""
    if os.environ.get("HDLSCAN_BIN"):
        return Path(os.environ["HDLSCAN_BIN"])
    out = subprocess.run(
        ["cargo", "build", "--quiet", "--bin", "hdlscan", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") and msg["target"]["name"] == "hdlscan":
            return Path(msg["executable"])
    raise RuntimeError("cargo built no hdlscan binary")


def cli_parse(cli: Path, values: list[bytes], options: dict) -> list[dict]:
    """`hdlscan parse --format jsonl` of `values` with `options` (parse's
    keyword arguments), a row per value, without its `input` column. Values
    go one per line on stdin, as bytes; a value a line cannot hold (a line
    break in it) goes as an argument, in a run of its own."""
    flags = []
    if options.get("repair"):
        flags.append("--repair")
    if "max_len" in options:
        flags += ["--max-len", str(options["max_len"])]
    for r in options.get("resolvers", ()):
        flags += ["--resolver", r]
    for e in options.get("expect", ()):
        flags += ["--expect", e]
    rows = []
    for v in values:
        if b"\n" in v or v.endswith(b"\r"):
            run = subprocess.run([cli, "parse", "--format", "jsonl", *flags, "--", v.decode()],
                                 check=True, capture_output=True)
        else:
            run = None
        rows.append(run)
    lines = [v for v, r in zip(values, rows) if r is None]
    out = subprocess.run([cli, "parse", "--format", "jsonl", *flags], input=b"".join(v + b"\n" for v in lines),
                         check=True, capture_output=True).stdout.splitlines()
    assert len(out) == len(lines)
    it = iter(out)
    result = []
    for r in rows:
        row = json.loads(r.stdout if r is not None else next(it))
        row.pop("input")
        result.append(row)
    return result


def conformance_cases() -> list[dict]:
    """Every case of the conformance corpus: its id, bytes and options."""
    cases = []
    for f in [TESTDATA / "conformance.json", *sorted((TESTDATA / "conformance").glob("*.json"))]:
        for c in json.loads(f.read_text())["cases"]:
            raw = bytes.fromhex(c["input_hex"]) if "input_hex" in c else c["input"].encode()
            cases.append({"id": c["id"], "value": raw, "options": c.get("options") or {}})
    return cases
