"""The live-stream benchmark (bench.streams) on a Redis Cluster: 3 masters of the machine's
redis-server >= 7 (sharded pub/sub: SPUBLISH after each commit, one SSUBSCRIBE connection
per node in each gunicorn process), RQ on a standalone Redis beside it. Prints
notify_cluster_p50_ms and notify_cluster_p99_ms; without a redis-server >= 7 on PATH it
prints why it measured nothing."""

from __future__ import annotations

import os

import settings
from bench.api import served_stack
from bench.streams import CONNECTIONS, measure
from devtools.redis_binaries import system_redis_server
from devtools.redis_cluster import RedisClusterHarness
from devtools.redis_servers import RedisServer


def run() -> None:
    binary = system_redis_server((7, 0))
    if binary is None:
        print("notify_cluster_skipped: no redis-server >= 7.0 on PATH")
        return
    with RedisClusterHarness(binary=binary) as cluster, RedisServer() as queue:
        url = cluster.url.replace("redis://", "redis+cluster://")
        os.environ["RQ_REDIS_URL"] = queue.url
        settings.reload()
        try:
            with served_stack(connections=CONNECTIONS, redis_url=url) as stack:
                figures = measure(stack.base_url)
        finally:
            os.environ.pop("RQ_REDIS_URL", None)
            settings.reload()
    print(f"notify_cluster_streams_open: {figures['open']}")
    print(f"notify_cluster_p50_ms: {figures['p50']:.2f}")
    print(f"notify_cluster_p99_ms: {figures['p99']:.2f}")
    print(f"notify_cluster_samples: {figures['samples']}")
    print(f"notify_cluster_lines_missing: {figures['lost']}")


if __name__ == "__main__":
    run()
