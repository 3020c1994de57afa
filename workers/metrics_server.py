"""A worker's own metrics endpoint, for worker processes on a host without the API
(`keltis worker --metrics-bind HOST:PORT`): prometheus_client's small HTTP server in a
daemon thread, serving this process's metrics (application.metrics.counters) or, with
PROMETHEUS_MULTIPROC_DIR set, every process's of that directory. Bind it to a private
address: it has no token (the API's GET /metrics has one)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.multiprocess import MultiProcessCollector

from application.common.bind_address import parse_bind
from application.metrics import counters as metrics
from application.operations.metrics_scrape import multiprocess_dir


def serve_metrics(bind: str):
    """Start serving /metrics on `bind`; the server (its `server_address` is the address it
    listens on, its `shutdown()` stops it)."""
    host, port = parse_bind(bind)
    path = multiprocess_dir()
    registry = metrics.REGISTRY
    if path is not None:
        registry = CollectorRegistry(auto_describe=False)
        MultiProcessCollector(registry, path=path)
    server, _thread = start_http_server(port, addr=host, registry=registry)
    return server
