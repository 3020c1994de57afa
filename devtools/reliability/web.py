"""A real gunicorn server of the API (several processes) on a free port, for fault tests."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path

import requests

from cli.serve import gunicorn_command
from devtools import process_reaper
from devtools.ports import LOOPBACK, pick_free_port

ROOT = Path(__file__).resolve().parents[2]


class WebServerError(RuntimeError):
    """gunicorn exited or did not answer /healthz in time."""


class WebServer:
    """`gunicorn api:create_app()` with `workers` processes, configured as `keltis serve`."""

    def __init__(self, env: dict[str, str], workers: int = 2, port: int | None = None):
        """`port`: the one to serve on (the tests hand out ports of their own, since
        gunicorn's SO_REUSEPORT would let two servers share one silently); else a free
        one picked at each start."""
        self.env = {
            **os.environ,
            "KELTIS_RATE_LIMIT": "off",
            "KELTIS_QUOTAS": "off",
            "KELTIS_STREAMS_PER_ADDRESS": "off",  # every client of a test is one address
            **env,
        }
        self.workers = workers
        self.fixed_port = port
        self.port = 0
        self.process: subprocess.Popen | None = None
        self._log = None  # gunicorn's stderr, read back only when it fails to start

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def start(self, timeout_s: float = 60.0) -> WebServer:
        self.port = self.fixed_port or pick_free_port()
        command = gunicorn_command(
            LOOPBACK, self.port, self.workers, extra=("--graceful-timeout", "2")
        )
        # A file, not a pipe nobody reads (a Redis outage logs one warning per request).
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            preexec_fn=process_reaper.die_with_parent,
        )
        process_reaper.register(self.process)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise WebServerError(
                    f"gunicorn exited with {self.process.returncode}: {self._log_tail()}"
                )
            try:
                # Any answer (even 503 while Redis is down) means gunicorn serves.
                requests.get(self.url + "/v1/bots", timeout=5)
                return self
            except requests.RequestException:
                time.sleep(0.1)
        tail = self._log_tail()
        self.close()
        raise WebServerError(f"gunicorn did not answer in {timeout_s:.0f} s: {tail}")

    def _log_tail(self, lines: int = 30) -> str:
        """The last lines gunicorn wrote to stderr."""
        if self._log is None:
            return ""
        self._log.seek(0)
        return "\n".join(self._log.read().decode(errors="replace").splitlines()[-lines:])

    def close(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process_reaper.kill_and_wait(self.process)
        process_reaper.unregister(self.process)
        self.process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()
