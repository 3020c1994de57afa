"""gunicorn server hooks of `keltis serve` (loaded with `--config python:api.gunicorn_hooks`).

`child_exit`: a web process that exited (restarted, or killed) no longer counts in the
`livesum` gauges of the multiprocess metrics (open streams, long polls); its counters and
histograms stay summed, as Prometheus expects of counters. Loaded by gunicorn's master
before its workers patch the standard library for gevent: import nothing heavy here.
"""

from __future__ import annotations

import os

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"  # application.metrics_scrape.MULTIPROC_ENV


def child_exit(server, worker) -> None:
    """gunicorn calls this in the master after a worker process exited."""
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
