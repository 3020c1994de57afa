"""Schemathesis' own command line (`st run`) against a served instance, every check on.

The run the issue names: `st run <url>/openapi.yaml --checks all --phases
examples,coverage,fuzzing,stateful`, bounded by --max-examples and seeded, both as a
stranger runs it first (no settings, no credentials: run_as_stranger) and with them. The links of
openapi.yaml let the stateful phase create games and tournaments and use their tokens; two
accounts and a game made first give every phase a real account key and a real seat's token
(schemathesis.toml), so the account and seat operations are reached, not only refused.
Used by tests/reliability/test_contract_run*.py (one file each: they run side by side).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import requests

PHASES = "examples,coverage,fuzzing,stateful"
# Per operation and phase in the suite: some 500 requests, 1-2 minutes on 2 busy cores.
SUITE_MAX_EXAMPLES = 2
CASE_START = re.compile(r"^\d+\. Test Case ID: \S+$", flags=re.MULTILINE)
ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("schemathesis.toml")
OPERATOR_TOKEN = "kop_contract_run_operator"  # the served app's KELTIS_OPERATOR_TOKEN
METRICS_TOKEN = "kmt_contract_run_metrics"  # the served app's KELTIS_METRICS_TOKEN


@dataclass
class ContractRun:
    """What `st` reported: its exit status, its text, and its NDJSON events."""

    returncode: int
    output: str
    events: list[dict]

    def only_unauthorized(self) -> list[str]:
        """The operations st warned answered only 401/403 (its "Authentication failed")."""
        found, inside = [], False
        for line in self.output.splitlines():
            if line.startswith(("401 Unauthorized", "403 Forbidden")):
                inside = True
            elif inside and line.startswith("  - "):
                found.append(line[4:].strip())
            elif inside and line.strip():
                inside = False
        return found

    def failures(self) -> list[str]:
        """The text of each failing test case st reported (its FAILURES section)."""
        section = self.output.split(" FAILURES ", 1)
        if len(section) < 2:
            return []
        body = re.split(r"\n=+ (?:WARNINGS|ERRORS|SUMMARY) =+", section[1])[0]
        return [case for case in CASE_START.split(body)[1:] if case.strip()]

    def summary(self) -> str:
        """The end of the text report (failures and warnings), for an assertion message."""
        return self.output[-6000:]


def assert_clean(run: ContractRun) -> None:
    """Every phase ran and passed: st exited 0, with no failure, no error and some hundreds
    of requests."""
    if not run.events:
        raise AssertionError("st wrote no events")
    errored = re.search(r"^=+ ERRORS =+$", run.output, flags=re.MULTILINE)
    if run.returncode != 0 or run.failures() or errored:
        raise AssertionError(run.summary())
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        if not re.search(rf"✅\s+{phase}\b", run.output):
            raise AssertionError(f"{phase} did not pass:\n{run.summary()}")
    generated = re.search(r"(\d+) generated", run.output)
    if not generated or int(generated.group(1)) < 300:
        raise AssertionError(f"too few requests generated:\n{run.summary()}")


def st_command(
    base_url: str, report: Path, max_examples: int, seed: int, config: Path | None = CONFIG
) -> list[str]:
    """`st run` with every check and phase on; `config` None: none (a stranger's run)."""
    settings = ["--config-file", str(config)] if config is not None else []
    return [
        str(Path(sys.executable).parent / "st"), *settings, "run",
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


def account_key(base_url: str, prefix: str) -> str:
    """The key of a new bot account on the server."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    made = requests.post(f"{base_url}/v1/accounts", json={"name": name, "bot": True}, timeout=10)
    made.raise_for_status()
    return made.json()["key"]


def seated_game(base_url: str) -> tuple[str, str, str]:
    """A new game of two people on the server: its id, seat 0's token, its creator token."""
    players = [{"name": "ann"}, {"name": "bea"}]
    made = requests.post(
        f"{base_url}/v1/games", json={"game": "keltis-card", "players": players}, timeout=10
    )
    made.raise_for_status()
    game = made.json()
    return game["id"], game["seats"][0]["token"], game["creator_token"]


def open_arena(base_url: str) -> str:
    """A new arena on the server (the operator's token); its id."""
    body = {"name": "contract", "game": "keltis-card", "ends_at": 2**52}
    headers = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    made = requests.post(f"{base_url}/v1/arenas", json=body, headers=headers, timeout=10)
    made.raise_for_status()
    return made.json()["id"]


def open_challenge(base_url: str, challenged_key: str) -> tuple[str, str]:
    """A challenge from a new account to the account of `challenged_key`: its id and the
    challenger's key (so accept and decline reach a challenge its key may answer, and
    cancel one its challenger may cancel)."""
    me = requests.get(
        f"{base_url}/v1/me", headers={"Authorization": f"Bearer {challenged_key}"}, timeout=10
    )
    me.raise_for_status()
    challenger = account_key(base_url, "challenger")
    body = {"game": "keltis-card", "opponents": [{"account": me.json()["name"]}]}
    made = requests.post(
        f"{base_url}/v1/challenges",
        json={**body, "expires_in_s": 3600},
        headers={"Authorization": f"Bearer {challenger}"},
        timeout=10,
    )
    made.raise_for_status()
    return made.json()["id"], challenger


def run_contract(base_url: str, work_dir: Path, max_examples: int, seed: int = 1) -> ContractRun:
    """Run `st` against `base_url` (a loopback server), with account keys and a seat's
    token for its auth."""
    report = work_dir / "events.ndjson"
    game_id, token, creator = seated_game(base_url)
    key = account_key(base_url, "contract")
    challenge_id, challenger = open_challenge(base_url, key)
    env = {
        **os.environ,
        "KELTIS_CONTRACT_KEY": key,
        "KELTIS_CONTRACT_CHALLENGE": challenge_id,
        "KELTIS_CONTRACT_CHALLENGER_KEY": challenger,
        "KELTIS_CONTRACT_ROTATING_KEY": account_key(base_url, "rotating"),
        "KELTIS_CONTRACT_GAME": game_id,
        "KELTIS_CONTRACT_SEAT_TOKEN": token,
        "KELTIS_CONTRACT_CREATOR_TOKEN": creator,
        "KELTIS_CONTRACT_OPERATOR_TOKEN": OPERATOR_TOKEN,
        "KELTIS_CONTRACT_METRICS_TOKEN": METRICS_TOKEN,
        "KELTIS_CONTRACT_ARENA": open_arena(base_url),
    }
    return _run(st_command(base_url, report, max_examples, seed), ROOT, env, report)


def run_as_stranger(base_url: str, work_dir: Path, max_examples: int, seed: int = 1):
    """Run `st` as someone who has only the URL: no settings file, no key, no token (from
    `work_dir`, so that no schemathesis.toml is found either)."""
    report = work_dir / "events.ndjson"
    command = st_command(base_url, report, max_examples, seed, config=None)
    return _run(command, work_dir, dict(os.environ), report)


def _run(command: list[str], cwd: Path, env: dict, report: Path) -> ContractRun:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    lines = report.read_text().splitlines() if report.exists() else []
    events = [json.loads(line) for line in lines if line.strip()]
    return ContractRun(done.returncode, done.stdout + done.stderr, events)
