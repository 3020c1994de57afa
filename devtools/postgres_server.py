"""A real PostgreSQL server from the machine's binaries, in a temporary directory, for tests
and benchmarks: listening on a unix socket in its own directory only (no TCP port, so any
number of servers run side by side), trust authentication, fsync off.

    with PostgresServer() as server:
        url = server.create_database("t1")   # postgresql://keltis@/t1?host=...

initdb refuses to run as root: as root, the server's files and process belong to an
unprivileged user (Debian's `postgres`, else `nobody`). Teardown kills the process even
when the test fails; `process_reaper` catches whatever an owner forgot.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from devtools import process_reaper

SUPERUSER = "keltis"
PORT = 5432  # only names the socket file, in the server's own directory
START_TIMEOUT_S = 60.0
BINARY_GLOB = "/usr/lib/postgresql/*/bin"
RUN_AS = ("postgres", "nobody")
MISSING = (
    "needs a PostgreSQL server (initdb, postgres under /usr/lib/postgresql/*/bin): "
    "apt-get install -y postgresql"
)


class PostgresServerError(RuntimeError):
    """The server did not start in time; the message has its log tail."""


def postgres_bin_dir() -> Path | None:
    """The newest /usr/lib/postgresql/<n>/bin holding initdb and postgres, or None."""
    found = [
        Path(d)
        for d in glob.glob(BINARY_GLOB)
        if (Path(d) / "initdb").exists() and (Path(d) / "postgres").exists()
    ]
    found.sort(key=lambda d: int(d.parent.name) if d.parent.name.isdigit() else 0)
    return found[-1] if found else None


def _run_as() -> str | None:
    """The unprivileged user the server runs as when we are root (None: ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in RUN_AS:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise PostgresServerError("running as root and no unprivileged user to run PostgreSQL as")


class PostgresServer:
    """One postgres process with its own data and socket directory."""

    def __init__(self, bin_dir: Path | None = None):
        self.bin_dir = bin_dir or postgres_bin_dir()
        if self.bin_dir is None:
            raise PostgresServerError(MISSING)
        self.user = _run_as()
        self.directory = Path(tempfile.mkdtemp(prefix="keltis-pg-"))
        self.data = self.directory / "data"
        self.log_path = self.directory / "postgres.log"
        self._process: subprocess.Popen | None = None

    @property
    def socket_dir(self) -> str:
        return str(self.directory)

    def url(self, database: str = "postgres") -> str:
        """A libpq URL of `database` on this server (over its unix socket)."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.directory}&port={PORT}"

    def _popen(self, args: list[str], **kwargs) -> subprocess.Popen:
        return subprocess.Popen(
            args,
            user=self.user,
            preexec_fn=process_reaper.die_with_parent,
            stdin=subprocess.DEVNULL,
            **kwargs,
        )

    def start(self) -> PostgresServer:
        """initdb (first time) and start the server; wait until it takes connections."""
        if self.user is not None:
            shutil.chown(self.directory, self.user)
        if not self.data.exists():
            initdb = self._popen(
                [
                    str(self.bin_dir / "initdb"),
                    "-D",
                    str(self.data),
                    "-U",
                    SUPERUSER,
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--no-sync",
                    "--locale=C",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            out, _ = initdb.communicate(timeout=START_TIMEOUT_S)
            if initdb.returncode != 0:
                raise PostgresServerError(f"initdb failed: {out.decode(errors='replace')}")
        log = open(self.log_path, "ab")  # noqa: SIM115 - the server keeps writing to it
        try:
            self._process = self._popen(
                [
                    str(self.bin_dir / "postgres"),
                    "-D",
                    str(self.data),
                    "-k",
                    self.socket_dir,
                    "-p",
                    str(PORT),
                    "-c",
                    "listen_addresses=",
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=200",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        finally:
            log.close()
        process_reaper.register(self._process)
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        import psycopg

        ends = time.monotonic() + START_TIMEOUT_S
        while True:
            if self._process.poll() is not None:
                raise PostgresServerError(f"postgres exited:\n{self.log_tail()}")
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return
            except psycopg.OperationalError as error:
                if time.monotonic() > ends:
                    tail = self.log_tail()
                    raise PostgresServerError(f"postgres did not start:\n{tail}") from error
                time.sleep(0.05)

    def create_database(self, name: str) -> str:
        """Create database `name` and return its URL."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)

    def log_tail(self, lines: int = 30) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def close(self) -> None:
        """Stop the server (fast shutdown, SIGKILL if it hangs) and remove its directory."""
        process = self._process
        if process is not None:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process_reaper.kill_and_wait(process)
            process_reaper.unregister(process)
            self._process = None
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
