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


def start_worker(redis_url: str, *options: str, **env) -> subprocess.Popen:
    """A worker on `redis_url` with `options` (e.g. "--deadline-every", "0.1")."""
    environment = {**os.environ, "REDIS_URL": redis_url, **env}
    command = [str(Path(sys.executable).parent / "keltis"), "worker", *options]
    return subprocess.Popen(command, cwd=ROOT, env=environment)


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
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def served(redis_url: str, env: dict[str, str] | None = None, **options) -> Iterator[LocalStack]:
    """The real stack (cli.serve.start_stack: one web worker, 50 connections unless
    `options` say otherwise) on a free port over `redis_url`, its processes started with
    `env` set; stopped after the block."""
    settings = {"web_workers": 1, "connections": 50, **options}
    with overridden(env or {}):
        stack = start_stack(port=free_port(), redis_url=redis_url, **settings)
    try:
        yield stack
    finally:
        stack.stop()
