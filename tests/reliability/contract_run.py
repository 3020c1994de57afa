"""Schemathesis' own command line (`st run`) against a served instance, every check on.

The run the issue names: `st run <url>/openapi.yaml --checks all --phases
examples,coverage,fuzzing,stateful`, bounded by --max-examples and seeded. The links of
openapi.yaml let the stateful phase create games and tournaments and use their tokens.
Used by tests/reliability/test_contract_run.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PHASES = "examples,coverage,fuzzing,stateful"
ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("schemathesis.toml")


@dataclass
class ContractRun:
    """What `st` reported: its exit status, its text, and its NDJSON events."""

    returncode: int
    output: str
    events: list[dict]

    def summary(self) -> str:
        """The end of the text report (failures and warnings), for an assertion message."""
        return self.output[-6000:]


def st_command(base_url: str, report: Path, max_examples: int, seed: int) -> list[str]:
    """`st run` with every check and phase on."""
    return [
        str(Path(sys.executable).parent / "st"), "--config-file", str(CONFIG), "run",
        f"{base_url}/openapi.yaml",
        "--url", base_url,
        "--checks", "all",
        "--phases", PHASES,
        "--max-examples", str(max_examples),
        "--seed", str(seed),
        "--request-timeout", "10",
        "--no-color",
        "--report", "ndjson", "--report-ndjson-path", str(report),
    ]  # fmt: skip


def run_contract(base_url: str, work_dir: Path, max_examples: int, seed: int = 1) -> ContractRun:
    """Run `st` against `base_url` (a loopback server)."""
    report = work_dir / "events.ndjson"
    done = subprocess.run(
        st_command(base_url, report, max_examples, seed),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    lines = report.read_text().splitlines() if report.exists() else []
    events = [json.loads(line) for line in lines if line.strip()]
    return ContractRun(done.returncode, done.stdout + done.stderr, events)
