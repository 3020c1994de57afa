"""The curl walk-through of docs/http.md runs as written: the block is taken from the page,
pointed at a live stack on a free loopback port, and run by bash. Each of its answers is
JSON, and the move it posts (the first legal one) is accepted."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "http.md"
MARKER = "<!-- walkthrough: curl -->"
BASE_LINE = "BASE=http://127.0.0.1:8000"


def walkthrough() -> str:
    """The shell block after the walk-through's marker in docs/http.md."""
    text = PAGE.read_text(encoding="utf-8")
    found = re.search(re.escape(MARKER) + r"\n```sh\n(.*?)\n```", text, re.S)
    assert found, f"docs/http.md has no ```sh block after {MARKER}"
    return found.group(1)


def answers(output: str) -> list:
    """The JSON documents curl printed one after another."""
    decoder, documents, at = json.JSONDecoder(), [], 0
    while at < len(output):
        if output[at].isspace():
            at += 1
            continue
        document, at = decoder.raw_decode(output, at)
        documents.append(document)
    return documents


def test_the_http_walkthrough_runs_as_written(live_stack):
    missing = [tool for tool in ("bash", "curl", "python3") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"the walk-through needs {', '.join(missing)}: apt-get install -y curl")
    script = walkthrough()
    assert BASE_LINE in script.splitlines()
    script = script.replace(BASE_LINE, f"BASE={live_stack.base_url}", 1)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # echo of the created game, its state, the legal moves, the move's answer, the events
    created, state, listed, moved, events = answers(done.stdout)
    assert not [a for a in (created, state, listed, moved, events) if "error" in a], done.stdout
    assert created["status"] == "active" and state["id"] == created["id"]
    assert listed["seat"] == 0 and listed["moves"]
    assert moved["version"] == listed["version"] + 1
    assert [e["version"] for e in events["events"]][:1] == [2]
