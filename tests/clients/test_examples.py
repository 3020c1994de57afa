"""examples/stream_bot.py and examples/webhook_bot.py, run as their authors run them:
a restart takes the same account back with the saved key (a second start died on a bare
409 name_taken), and a taken name with no key says what to do."""

from __future__ import annotations

import os
import secrets
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from keltis_client import credentials

from tests.support.ports import free_port

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]


def run_example(script: str, *args: str, config: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "clients" / "python"),
        "XDG_CONFIG_HOME": str(config),
    }
    env.pop("KELTIS_KEY", None)
    return subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / script), *args],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def saved_key(config_home, base: str, name: str) -> str:
    """The key the example saved for `name` (its credentials file under `config_home`)."""
    saved = credentials.default_path(base, name).relative_to(credentials.config_dir())
    return credentials.load(config_home / "keltis" / saved).key


def play_one(base: str, name: str, key: str, process: subprocess.Popen | None = None) -> dict:
    """A game of `name` against greedy (created with its key: an account is seated only
    with its consent), waited on to its end."""
    players = [{"account": name}, {"bot": "greedy"}]
    body = {"game": "keltis-card", "players": players}
    auth = {"Authorization": f"Bearer {key}"}
    created = requests.post(f"{base}/v1/games", json=body, headers=auth)
    assert created.status_code == 201, created.text
    url = f"{base}/v1/games/{created.json()['id']}"

    def over():
        if process is not None and process.poll() not in (None, 0):
            raise AssertionError(process.communicate()[1])
        game = requests.get(url).json()
        return game if game["status"] == "finished" else None

    return wait_for(over, 120, "the game's end")


def test_the_stream_bot_example_restarts_with_its_saved_key(stack, config_home):
    base, name = stack.base_url, f"sb{secrets.token_hex(4)}"
    args = ("--server", base, "--name", name, "--games", "1")
    first = run_example("stream_bot.py", *args, config=config_home)
    saved = credentials.default_path(base, name).relative_to(credentials.config_dir())
    path = config_home / "keltis" / saved
    wait_for(path.exists, 30, "the saved credentials")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    game = play_one(base, name, saved_key(config_home, base, name), first)
    assert first.wait(30) == 0, first.stderr.read()
    assert game["players"][0]["timeouts"] == 0
    key = credentials.load(path).key
    second = run_example("stream_bot.py", *args, config=config_home)  # the same account again
    game = play_one(base, name, key, second)
    out, err = second.communicate(timeout=30)
    assert second.returncode == 0, err
    assert f"finished {game['id']}" in out
    assert credentials.load(path).key == key  # the one account, its key kept


def test_a_taken_name_without_a_key_is_a_clear_message(stack, config_home):
    base, name = stack.base_url, f"sb{secrets.token_hex(4)}"
    requests.post(f"{base}/v1/accounts", json={"name": name, "bot": True}).raise_for_status()
    process = run_example("stream_bot.py", "--server", base, "--name", name, config=config_home)
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert f"the account name '{name}' is taken" in err and "--key" in err
    assert "Traceback" not in err


def test_the_webhook_example_takes_its_account_back_on_a_new_port(stack, config_home):
    base, name = stack.base_url, f"wh{secrets.token_hex(4)}"
    for _ in range(2):  # the second start: same account, a new port, the saved secret
        port = free_port()
        process = run_example(
            "webhook_bot.py", "--server", base, "--name", name, "--port", str(port),
            config=config_home,
        )  # fmt: skip
        try:
            line = process.stdout.readline()
            assert f"account {name} serving on port {port}" in line, process.stderr.read()
            game = play_one(base, name, saved_key(config_home, base, name), process)
        finally:
            process.terminate()
            process.wait(10)
        assert game["players"][0]["timeouts"] == 0


def test_the_webhook_example_takes_an_account_back_by_its_key(stack, config_home):
    """Only the key (`--key`, as when the credentials file is lost): the kit replaces it to
    learn a webhook secret, and saves the new pair."""
    base, name = stack.base_url, f"wh{secrets.token_hex(4)}"
    old = requests.post(f"{base}/v1/accounts", json={"name": name, "bot": True}).json()["key"]
    port = free_port()
    process = run_example(
        "webhook_bot.py", "--server", base, "--name", name, "--port", str(port), "--key", old,
        config=config_home,
    )  # fmt: skip
    try:
        assert "serving" in process.stdout.readline(), process.stderr.read()
        game = play_one(base, name, saved_key(config_home, base, name), process)
    finally:
        process.terminate()
        process.wait(10)
    assert game["players"][0]["timeouts"] == 0
    path = config_home / "keltis" / credentials.default_path(base, name).name
    assert credentials.load(path).key != old
    assert (
        requests.get(f"{base}/v1/me", headers={"Authorization": f"Bearer {old}"}).status_code == 401
    )
