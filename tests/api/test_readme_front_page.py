"""The README's examples work as written against a live stack on a free loopback port: its
first curl lines start a game and list the first seat's legal moves; its account lines sign
up, challenge `greedy` (accepted at once) and seek a rated game, whose stream says
`game_started` (a level bot's, on a server where no person seeks); and its 15-line bot
signs up, keeps a seek open, plays the whole game the pool gives it and stops after
`--games 1`. Every ```sh block but the Quickstart's (`make run` starts what the stack
fixture starts) is run here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests

from tests.support.ctrl_c import ctrl_c_reaches

README = Path(__file__).resolve().parents[2] / "README.md"
BASE_LINE = "BASE=http://127.0.0.1:8000"
GAME_DEADLINE_S = 180.0  # a whole greedy game on a loaded machine


def block(language: str) -> str:
    """The README's one fenced block of `language`."""
    found = re.findall(rf"\n```{language}\n(.*?)\n```", README.read_text(encoding="utf-8"), re.S)
    assert len(found) == 1, f"README.md has {len(found)} ```{language} blocks"
    return found[0]


def test_the_readme_curl_lines_start_a_game_and_list_its_moves(live_stack):
    if shutil.which("curl") is None:
        pytest.skip("the README's lines need curl: apt-get install -y curl")
    lines = block_after("## Play over HTTP")
    assert BASE_LINE in lines.splitlines()
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", lines.replace(BASE_LINE, f"BASE={live_stack.base_url}")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert listed["seat"] == 0 and listed["moves"], listed


def block_after(heading: str, containing: str = "") -> str:
    """The first ```sh block after `heading` (that has `containing` in it)."""
    text = README.read_text(encoding="utf-8")
    start = text.index(heading)
    for found in re.finditer(r"\n```sh\n(.*?)\n```", text[start:], re.S):
        if containing in found.group(1):
            return found.group(1)
    raise AssertionError(f"README.md has no ```sh block with {containing!r} after {heading}")


def test_every_sh_block_is_run_here():
    tested = {block_after("## Play over HTTP"), block_after("## Play over HTTP", "/v1/seeks")}
    quickstart = block_after("## Quickstart")
    every = set(re.findall(r"\n```sh\n(.*?)\n```", README.read_text(encoding="utf-8"), re.S))
    assert every - {quickstart} == tested


def test_the_readme_account_lines_challenge_a_bot_and_play_now(live_stack):
    if shutil.which("curl") is None:
        pytest.skip("the README's lines need curl: apt-get install -y curl")
    lines = block_after("## Play over HTTP", "/v1/seeks")
    assert BASE_LINE in lines.splitlines() and '"name": "ann"' in lines
    name = "ann" + uuid.uuid4().hex[:8]  # the session's Redis may know an ann already
    script = lines.replace(BASE_LINE, f"BASE={live_stack.base_url}").replace('"ann"', f'"{name}"')
    # The last line streams until Ctrl-C: read it until its game starts, then stop it.
    process = subprocess.Popen(
        ctrl_c_reaches(["bash", "-euo", "pipefail", "-c", script]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        challenge, seek = (
            json.loads(process.stdout.readline()),
            json.loads(process.stdout.readline()),
        )
        deadline = time.monotonic() + 60
        started = None
        while started is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            assert line, f"the stream ended: {process.stderr.read()}"
            if line.strip() and json.loads(line)["type"] == "game_started":
                started = json.loads(line)["game"]
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=10)
    assert challenge["status"] == "accepted" and challenge["game_id"], challenge
    assert seek["status"] == "open" and seek["pool_bots"]["bots"] == ["level:1"], seek
    game = requests.get(f"{live_stack.base_url}/v1/games/{started}", timeout=10).json()
    assert game["rated"] is True
    assert sorted(p.get("account") or p["bot"] for p in game["players"]) == sorted(
        ["level:1", name]
    )
    greedy = requests.get(f"{live_stack.base_url}/v1/games/{challenge['game_id']}", timeout=10)
    seated = sorted(p.get("account") or p["bot"] for p in greedy.json()["players"])
    assert seated == sorted(["greedy", name])


def test_the_readme_bot_gets_a_game_from_the_pool_plays_it_and_stops(live_stack, tmp_path):
    bot = tmp_path / "mybot.py"
    bot.write_text(block("python"))
    assert len(block("python").splitlines()) <= 15
    credentials = tmp_path / "mybot.json"
    name = f"readme{int(time.time() * 1000) % 10**9}"
    command = [sys.executable, str(bot), "--server", live_stack.base_url, "--name", name]
    command += ["--credentials", str(credentials), "--games", "1", "-q"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        key = wait_for_key(credentials, process)
        output, _ = process.communicate(timeout=GAME_DEADLINE_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, output
    games = requests.get(f"{live_stack.base_url}/v1/accounts/{name}/games", timeout=10)
    games = games.json()["games"]
    assert len(games) == 1 and games[0]["status"] == "finished", games  # the pool's game
    assert (
        requests.get(
            f"{live_stack.base_url}/v1/seeks",
            headers={"Authorization": f"Bearer {key}"},
            timeout=10,
        ).json()["seeks"]
        == []
    )  # deleted on the way out: no game after the last


def wait_for_key(credentials: Path, process: subprocess.Popen, timeout_s: float = 60.0) -> str:
    """The account key the bot saved when it signed up."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if credentials.exists() and credentials.stat().st_size:
            return json.loads(credentials.read_text())["key"]
        if process.poll() is not None:
            raise AssertionError(f"the bot exited: {process.stdout.read()}")
        time.sleep(0.05)
    raise AssertionError("the bot never signed up")
