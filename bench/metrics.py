"""Metrics benchmark: the cost of a scrape of GET /metrics while the service is busy.

Starts the stack as `keltis serve` runs it (2 gunicorn processes, 2 `keltis worker`
processes, one multiprocess metrics directory) with an operator metrics token. Load: 8
clients play human-vs-human keltis-card games over HTTP (bench.api's GameClient), and
all-bot games keep the workers busy (a new batch whenever the bulk queue runs dry). Meanwhile
one scraper fetches /metrics back to back. Prints the scrape latency (p50, p99), the size
of an exposition, its number of series, and the per-request cost of the request hook
(api.core.observe: clock reads, counter and histogram, JSON log line), measured in process.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import timeit

from bench.api import Connection, GameClient, served_stack
from bench.figures import figure
from cli.metrics_dir import MULTIPROC_ENV

TOKEN = "bench-metrics-token"
CLIENTS = 8
SCRAPES = 300
BOT_GAMES_PER_BATCH = 8
HOOK_CALLS = 20000


def _bot_games(base_url: str, stop: threading.Event) -> None:
    """Keep all-bot games coming, so that both workers play bot turns during the scrapes."""
    http = Connection(base_url)
    players = [{"name": "rob", "bot": "random"}, {"name": "rex", "bot": "greedy"}]
    while not stop.is_set():
        for _ in range(BOT_GAMES_PER_BATCH):
            http.call("POST", "/v1/games", {"game": "keltis-card", "players": players})
        stop.wait(2.0)


def _load(base_url: str) -> None:
    """The load (a process of its own, so that the scraper's timings are not its GIL's):
    CLIENTS players and the bot games, until killed."""
    stop = threading.Event()

    def play(seed: int) -> None:
        client = GameClient(base_url, seed)
        while not stop.is_set():
            client.step(record=False)

    threads = [threading.Thread(target=play, args=(seed,), daemon=True) for seed in range(CLIENTS)]
    threads.append(threading.Thread(target=_bot_games, args=(base_url, stop), daemon=True))
    for thread in threads:
        thread.start()
    stop.wait()


def _timed_get(connection: Connection, path: str, headers: dict) -> tuple[float, bytes]:
    started = time.perf_counter()
    connection.http.request("GET", path, headers=headers)
    response = connection.http.getresponse()
    body = response.read()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}")
    return (time.perf_counter() - started) * 1000, body


def measure_scrapes(base_url: str, count: int = SCRAPES) -> dict:
    """`count` scrapes under load, each followed by a health check on the same connection
    (the baseline: what any request waits at that moment); their latencies (ms), and the
    last exposition's bytes and series."""
    connection = Connection(base_url)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    scrapes, checks, body = [], [], b""
    for _ in range(count):
        elapsed, body = _timed_get(connection, "/metrics", headers)
        scrapes.append(elapsed)
        checks.append(_timed_get(connection, "/healthz", {})[0])
    series = sum(1 for line in body.splitlines() if line and not line.startswith(b"#"))
    return {"scrapes": sorted(scrapes), "checks": sorted(checks), "bytes": len(body),
            "series": series}  # fmt: skip


def _p99(values: list[float]) -> float:
    return values[int(len(values) * 0.99) - 1]


def scrape_cpu_ms(stack, count: int = 50) -> float:
    """CPU milliseconds one scrape costs (this thread's CPU time, so the machine's other load
    does not count): the same files and Redis gauges as the server's GET /metrics."""
    from application.operations.metrics_scrape import scrape
    from store.core.connection import queue_client, store_client

    store = store_client(stack.redis_url)
    queue = queue_client(stack.redis_url)
    began = time.thread_time()
    for _ in range(count):
        scrape(store, queue, str(stack.metrics_dir))
    return (time.thread_time() - began) * 1000 / count


def request_hook_us() -> float:
    """Microseconds the request hook (api.core.observe) adds to one request: measured in a
    process of its own in multiprocess mode (values in mmapped files), as gunicorn's are."""
    with tempfile.TemporaryDirectory(prefix="keltis-bench-metrics-") as directory:
        env = {**os.environ, MULTIPROC_ENV: directory}
        command = [sys.executable, "-m", "bench.metrics", "--hook"]
        output = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return float(output.stdout.strip())


def _dev_null():
    """A sink writing each line to /dev/null in one system call, as stderr would."""
    fd = os.open(os.devnull, os.O_WRONLY)
    return lambda line: os.write(fd, line)


def _hook_us_here() -> float:
    from flask import Flask

    from api.core import observe

    app = Flask(__name__)
    answered = observe.observer(_dev_null())

    @app.get("/t/<item>")
    def _t(item):
        return ""

    response = app.response_class("")

    def one_request() -> None:
        observe._begin()  # no incoming id: a fresh one is made, as for most callers
        answered(response)

    with app.test_request_context("/t/1"):
        seconds = timeit.timeit(one_request, number=HOOK_CALLS)
    return seconds / HOOK_CALLS * 1e6


def run() -> None:
    """Start the stack, load it, scrape, print the figures."""
    os.environ.setdefault("KELTIS_METRICS_TOKEN", TOKEN)
    with served_stack(web_workers=2, bot_workers=2) as stack:
        command = [sys.executable, "-m", "bench.metrics", "--load", stack.base_url]
        load = subprocess.Popen(command)
        try:
            time.sleep(3.0)  # warm up: games under way, every process has counted
            found = measure_scrapes(stack.base_url)
            cpu_ms = scrape_cpu_ms(stack)
        finally:
            load.terminate()
            load.wait(30)
    note = "2 web + 2 worker processes, 8 players and bot games running"
    figure("metrics_scrape_ms_p50", f"{statistics.median(found['scrapes']):.1f}", note)
    figure("metrics_scrape_ms", f"{_p99(found['scrapes']):.1f}", "p99; goal < 50")
    figure("metrics_healthz_ms", f"{_p99(found['checks']):.1f}", "p99 of /healthz meanwhile")
    figure("metrics_scrape_cpu_ms", f"{cpu_ms:.2f}", "CPU of one scrape, apart from the load")
    figure("metrics_scrape_bytes", found["bytes"])
    figure("metrics_series", found["series"])
    figure("metrics_request_hook_us", f"{request_hook_us():.1f}", "api.core.observe per request")


if __name__ == "__main__":
    if sys.argv[1:] == ["--hook"]:
        print(f"{_hook_us_here():.3f}")
    elif sys.argv[1:2] == ["--load"]:
        _load(sys.argv[2])
    else:
        run()
