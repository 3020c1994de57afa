"""`keltis worker --metrics-bind`: a worker on a host without the API serves its own
metrics, here its bot turns of an all-bot game."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import requests

from api import create_app
from application.common.bind_address import parse_bind
from tests.support.metrics_text import samples, value
from tests.workers.processes import ROOT, stop, wait_for

pytestmark = pytest.mark.redis

BULK_QUEUE = "keltis-bots-bulk"
LISTENING = re.compile(r"worker metrics on 127\.0\.0\.1:(\d+) ")


def _worker_on_any_port(redis_url: str) -> tuple[subprocess.Popen, int]:
    """A worker whose metrics listen on a port the kernel picks (so no other test's can
    take it), read from its start-up line on stderr."""
    command = [str(Path(sys.executable).parent / "keltis"), "worker"]
    command += ["--metrics-bind", "127.0.0.1:0"]
    environment = {**os.environ, "REDIS_URL": redis_url}
    process = subprocess.Popen(
        command, cwd=ROOT, env=environment, stderr=subprocess.PIPE, text=True
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in process.stderr:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    seen = []
    try:
        while True:
            line = lines.get(timeout=60)
            seen.append(line)
            found = LISTENING.search(line)
            if found:
                return process, int(found.group(1))
    except queue.Empty:
        stop(process)
        raise AssertionError(f"the worker named no metrics port: {seen}") from None


def test_a_worker_serves_its_bot_turns_on_its_metrics_bind(redis_server_factory):
    server = redis_server_factory()  # its own: no other test's worker takes these turns
    worker, port = _worker_on_any_port(server.url)
    try:
        client = create_app({"REDIS_URL": server.url, "TESTING": True}).test_client()
        players = [{"name": "rob", "bot": "random"}, {"name": "rex", "bot": "random"}]
        created = client.post("/v1/games", json={"game": "keltis-dice", "players": players})
        assert created.status_code == 201

        def counted():
            try:
                text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
            except requests.ConnectionError:
                return None  # not listening yet
            found = samples(text)
            return found if value(found, "keltis_bot_turns_total", queue=BULK_QUEUE) else None

        found = wait_for(counted, 60, "the worker's bot turns on its metrics bind", every=0.2)
    finally:
        stop(worker)
    assert value(found, "keltis_bot_turn_seconds_count", queue=BULK_QUEUE) >= 1
    assert value(found, "keltis_moves_appended_total", game="keltis-dice") >= 1


@pytest.mark.parametrize("bind", ["9100", ":9100", "host:", "host:port", "h:-1", "h:70000"])
def test_a_bad_metrics_bind_is_refused(bind):
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_bind(bind)


def test_a_metrics_bind_names_host_and_port():
    assert parse_bind("127.0.0.1:9100") == ("127.0.0.1", 9100)
    assert parse_bind("[::1]:9100") == ("::1", 9100)
    assert parse_bind("127.0.0.1:0") == ("127.0.0.1", 0)
