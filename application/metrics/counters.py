"""The service's named metrics (prometheus_client), counted where the work happens.

Every metric lives in `REGISTRY`, this module's own registry (nothing is added to the
library's global one). With PROMETHEUS_MULTIPROC_DIR set before the process starts (as
`keltis serve` sets it for its gunicorn and worker processes), the values live in files of
that directory, and one scrape (api.core.metrics_endpoint) sums every process's files.

Labels take values from closed sets only (routes of the app, game types, queue names,
outcomes named in code), so the number of series stays bounded whatever callers send.
Callers use the small functions below rather than the metric objects, so a counter's name
and labels are spelled in one place. The archive tier counts its moves with
`archived(outcome)`.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

# Seconds: from a millisecond health check to a long bot search or a slow webhook. Each
# bucket is a sample per series and process that every scrape reads: kept few.
LATENCY_BUCKETS = (0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10)


def _counter(name: str, documentation: str, labels: list[str]) -> Counter:
    return Counter(name, documentation, labels, registry=REGISTRY)


def _histogram(name: str, documentation: str, labels: list[str]) -> Histogram:
    """Seconds, in LATENCY_BUCKETS."""
    return Histogram(name, documentation, labels, buckets=LATENCY_BUCKETS, registry=REGISTRY)


def _gauge(name: str, documentation: str, labels: list[str]) -> Gauge:
    """Summed over the live processes."""
    return Gauge(name, documentation, labels, multiprocess_mode="livesum", registry=REGISTRY)


REQUESTS = _counter(
    "keltis_http_requests",
    "HTTP requests answered, by route (the URL rule), method and status.",
    ["route", "method", "status"],
)
REQUEST_SECONDS = _histogram(
    "keltis_http_request_seconds",
    "Time to the answer's headers, by route (the URL rule) and method.",
    ["route", "method"],
)
ENTRIES_APPENDED = _counter(
    "keltis_moves_appended",
    "Log entries appended to games (every entry: creation, joins, moves, bot turns and"
    " service events), by game type.",
    ["game"],
)
OPEN_STREAMS = _gauge("keltis_open_streams", "NDJSON streams being served, by kind.", ["kind"])
OPEN_LONG_POLLS = _gauge(
    "keltis_open_long_polls", "Long polls (?wait=) waiting for a new version, by kind.", ["kind"]
)
WEBHOOK_CALLS = _counter(
    "keltis_webhook_calls",
    "Webhook bot calls, by outcome (ok, or the failure's reason).",
    ["outcome"],
)
WEBHOOK_SECONDS = _histogram(
    "keltis_webhook_call_seconds",
    "Duration of webhook bot calls, by outcome (ok or failed).",
    ["outcome"],
)
BOT_TURN_SECONDS = _histogram(
    "keltis_bot_turn_seconds", "Duration of bot-turn jobs, by queue.", ["queue"]
)
BOT_TURN_WAIT_SECONDS = _histogram(
    "keltis_bot_turn_wait_seconds",
    "Time bot-turn jobs waited in their queue before a worker took them, by queue.",
    ["queue"],
)
BOT_TURNS = _counter("keltis_bot_turns", "Bot turns played by bot-turn jobs, by queue.", ["queue"])
CLOCK_LATENESS_SECONDS = _histogram(
    "keltis_clock_lateness_seconds",
    "How long after its deadline a turn was timed out, by game type.",
    ["game"],
)
COMPACTIONS = _counter(
    "keltis_compactions", "Compaction passes over finished games, by outcome.", ["outcome"]
)
ARCHIVE_GAMES = _counter(
    "keltis_archive_games", "Finished games handled by the archive tier, by outcome.", ["outcome"]
)
BOT_CPU_SECONDS = _counter(
    "keltis_bot_cpu_seconds",
    "CPU seconds of bot work measured by the workers, by who it was for (creator: account,"
    " anonymous, tournament, service, analysis).",
    ["creator"],
)
GAMES_ENDED = _counter(
    "keltis_games_ended",
    "Games that ended, by game type and what ended them (ended_by: the rule the result"
    " names, `rules` for the rules' ordinary end, or `forfeit` / `cancelled`).",
    ["game", "ended_by"],
)
REFUSALS = _counter(
    "keltis_refusals",
    "Requests refused by a rate limit, a quota or a budget (429), by error code.",
    ["code"],
)
SUSPICIOUS_GAINS = _counter(
    "keltis_suspicious_gains",
    "Rated wins that made an account's quick wins over one opponent reach the suspicious"
    " count in 24 h (ladder.pairs: a farm of two accounts), by game type.",
    ["game"],
)
NO_STARTS = _counter(
    "keltis_no_starts",
    "Seats of accounts that never made their first move in a rated game, which was aborted"
    " (application.ladder.no_starts: a dodge after seeing the hand), by game type.",
    ["game"],
)

HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED_ROUTE = "<unmatched>"  # the route label of a request no URL rule matched
MAX_LABEL_CHARS = 100  # any label value from outside code paths is cut to this


def _label(value: str) -> str:
    return value[:MAX_LABEL_CHARS]


# The series of each (route, method, status) seen, so that a request costs no label lookup;
# bounded as the labels are (routes of the app, HTTP_METHODS or OTHER, statuses).
_request_series: dict[tuple[str | None, str, int], tuple] = {}


def request_answered(route: str | None, method: str, status: int, seconds: float) -> None:
    """One HTTP answer: `route` is the URL rule (None when no rule matched)."""
    key = (route, method if method in HTTP_METHODS else "OTHER", status)
    series = _request_series.get(key)
    if series is None:
        series = _request_series[key] = _series_of(*key)
    series[0].inc()
    series[1].observe(seconds)


def _series_of(route: str | None, method: str, status: int) -> tuple:
    """The counter and histogram children of one (route, method, status)."""
    route = _label(route) if route is not None else UNMATCHED_ROUTE
    return REQUESTS.labels(route, method, str(status)), REQUEST_SECONDS.labels(route, method)


# The counter child of each game type seen (bounded as game types are): a move costs no
# label lookup.
_appended_series: dict[str, object] = {}


def entries_appended(game: str, count: int) -> None:
    """`count` entries appended to a game of type `game`."""
    series = _appended_series.get(game)
    if series is None:
        series = _appended_series[game] = ENTRIES_APPENDED.labels(_label(game))
    series.inc(count)


def stream_opened(kind: str):
    """The gauge of open streams of `kind`; call `.dec()` on it when the stream ends."""
    gauge = OPEN_STREAMS.labels(_label(kind))
    gauge.inc()
    return gauge


def webhook_called(outcome: str, seconds: float) -> None:
    """One webhook call: `outcome` is "ok" or the failure's reason (a name from code)."""
    WEBHOOK_CALLS.labels(_label(outcome)).inc()
    WEBHOOK_SECONDS.labels("ok" if outcome == "ok" else "failed").observe(seconds)


def bot_turn_done(queue: str, played: int, seconds: float) -> None:
    """One bot-turn job of `queue` ran for `seconds` and played `played` turns."""
    queue = _label(queue)
    BOT_TURN_SECONDS.labels(queue).observe(seconds)
    if played:
        BOT_TURNS.labels(queue).inc(played)


def long_poll_opened(kind: str = "events"):
    """The gauge of open long polls of `kind`; call `.dec()` on it when the wait ends."""
    gauge = OPEN_LONG_POLLS.labels(_label(kind))
    gauge.inc()
    return gauge


def bot_turn_waited(queue: str, seconds: float) -> None:
    """A bot-turn job of `queue` waited `seconds` in it (hosts' clocks may differ: >= 0)."""
    BOT_TURN_WAIT_SECONDS.labels(_label(queue)).observe(max(0.0, seconds))


def timed_out_late(game: str, seconds: float) -> None:
    """A turn of a game of type `game` timed out `seconds` after its deadline."""
    CLOCK_LATENESS_SECONDS.labels(_label(game)).observe(max(0.0, seconds))


def compacted(outcome: str) -> None:
    """One game's compaction ended with `outcome` (application.operations.compaction.Outcome)."""
    COMPACTIONS.labels(_label(str(outcome))).inc()


def archived(outcome: str, count: int = 1) -> None:
    """The archive tier handled `count` games with `outcome` (an
    application.operations.archive.Outcome
    value, or "skipped" for a game whose log could not be archived: a short name from code,
    never a game id)."""
    ARCHIVE_GAMES.labels(_label(outcome)).inc(count)


def refused(code: str) -> None:
    """A request refused with 429 and the error `code` (rate_limited, quota_exceeded...)."""
    REFUSALS.labels(_label(code)).inc()


def bot_cpu_used(creator: str, seconds: float) -> None:
    """`seconds` of bot CPU measured for work of a creator of that kind (a name from code:
    application.budget.service.creator_kind)."""
    if seconds > 0:
        BOT_CPU_SECONDS.labels(_label(creator)).inc(seconds)


def game_ended(game: str, ended_by: str) -> None:
    """A game of type `game` ended; `ended_by` names the rule or the early end."""
    GAMES_ENDED.labels(_label(game), _label(ended_by)).inc()


def suspicious_gain(game: str) -> None:
    """A rated win of a game of type `game` made a suspicious gain
    (application.ladder.rated_pairs)."""
    SUSPICIOUS_GAINS.labels(_label(game)).inc()


def no_start(game: str) -> None:
    """An account's seat of a rated game of type `game` never moved and the game was
    aborted (application.ladder.no_starts)."""
    NO_STARTS.labels(_label(game)).inc()
