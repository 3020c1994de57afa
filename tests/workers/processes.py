"""Real `keltis worker` processes for the worker tests: start one, stop it for good; the
whole served stack (gunicorn and a worker) with settings of a test's own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cli.serve import LocalStack, start_stack
from devtools.environment import overridden
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]


def start_worker(redis_url: str, *options: str, stderr=None, **env) -> subprocess.Popen:
    """A worker on `redis_url` with `options` (e.g. "--deadline-every", "0.1"); `stderr`
    as subprocess.Popen takes it (None: the test run's)."""
    environment = {**os.environ, "REDIS_URL": redis_url, **env}
    command = [str(Path(sys.executable).parent / "keltis"), "worker", *options]
    return subprocess.Popen(command, cwd=ROOT, env=environment, stderr=stderr)


def stop_all(processes: list[subprocess.Popen]) -> None:
    """Terminate every worker still running, then wait for each (killed after 10 s)."""
    running = [process for process in processes if process.poll() is None]
    for process in running:
        process.terminate()
    for process in running:
        _wait_or_kill(process)


@contextmanager
def worker_starter(
    redis_url: str, *options: str, quiet: bool = False, **env
) -> Iterator[Callable[..., subprocess.Popen]]:
    """`start(*more)`: a worker on `redis_url` with `options`, then `more`, and `env` set
    (`quiet`: its stderr discarded); every worker started is stopped after the block."""
    started: list[subprocess.Popen] = []

    def start(*more: str) -> subprocess.Popen:
        stderr = subprocess.DEVNULL if quiet else None
        process = start_worker(redis_url, *options, *more, stderr=stderr, **env)
        started.append(process)
        return process

    try:
        yield start
    finally:
        stop_all(started)


def wait_for(predicate, seconds: float, what: str | Callable[[], str] = "", every: float = 0.05):
    """The first truthy value `predicate` returns within `seconds` (polled every `every`
    seconds); else AssertionError naming `what` (a text, or a function giving it then)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = predicate()
        if found:
            return found
        time.sleep(every)
    text = what() if callable(what) else what
    raise AssertionError(f"timed out waiting for {text}" if text else "timed out waiting")


def stop(process: subprocess.Popen) -> None:
    """Terminate the worker; kill it when it does not stop within 10 s."""
    process.terminate()
    _wait_or_kill(process)


def _wait_or_kill(process: subprocess.Popen) -> None:
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def served(redis_url: str, env: dict[str, str] | None = None, **options) -> Iterator[LocalStack]:
    """The real stack (cli.serve.start_stack: one web worker, 50 connections unless
    `options` say otherwise) on a free port over `redis_url`, its processes started with
    `env` set (creation quotas off unless `env` says: the stacks of a test process share
    one Redis and one client address); stopped after the block."""
    settings = {"web_workers": 1, "connections": 50, **options}
    with overridden({"KELTIS_QUOTAS": "off", **(env or {})}):
        stack = start_stack(port=free_port(), redis_url=redis_url, **settings)
    try:
        yield stack
    finally:
        stack.stop()
