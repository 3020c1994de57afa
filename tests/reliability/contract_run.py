"""Schemathesis' own command line (`st run`) against a served instance, every check on.

The same run as `st run <url>/openapi.yaml --checks all --phases
examples,coverage,fuzzing,stateful`, bounded by --max-examples; the links of openapi.yaml
let the stateful phase create games and tournaments and play with the returned tokens.
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


@dataclass
class ContractRun:
    returncode: int
    output: str
    report: dict

    @property
    def failures(self) -> list[str]:
        """The one-line titles of the failures found (empty when the contract holds)."""
        found = []
        for line in self.output.splitlines():
            if line.startswith(("- ", "_")) and ("failed" in line.lower() or "Failed" in line):
                found.append(line.strip())
        return found


def st_command(base_url: str, report_path: Path, max_examples: int, seed: int) -> list[str]:
    """`st run` with every check and phase on, bounded in examples."""
    return [
        str(Path(sys.executable).parent / "st"), "run", f"{base_url}/openapi.yaml",
        "--url", base_url,
        "--checks", "all",
        "--phases", PHASES,
        "--max-examples", str(max_examples),
        "--seed", str(seed),
        "--generation-deterministic",
        "--request-timeout", "10",
        "--no-color",
        "--report", "ndjson", "--report-ndjson-path", str(report_path),
    ]  # fmt: skip


def run_contract(base_url: str, work_dir: Path, max_examples: int = 8, seed: int = 1):
    """Run `st` against `base_url`; its exit status, output and NDJSON events."""
    report_path = work_dir / "events.ndjson"
    done = subprocess.run(
        st_command(base_url, report_path, max_examples, seed),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    events = [json.loads(line) for line in report_path.read_text().splitlines() if line]
    return ContractRun(done.returncode, done.stdout + done.stderr, {"events": events})
