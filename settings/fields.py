"""Every environment variable the service reads: its name, type, default, allowed values,
one line of description and whether it is a secret. `Settings` (settings.model) has one
field per entry, in this order."""

from __future__ import annotations

import math
from dataclasses import dataclass

from settings import parsing as p

INF = math.inf


@dataclass(frozen=True, slots=True)
class Var:
    """One environment variable: `attr` is its field on Settings."""

    name: str
    attr: str
    parse: p.Parser
    default: object
    allowed: str
    description: str
    secret: bool = False


def seconds(low: float = 0, high: float = INF, **options) -> p.Parser:
    """The parser of a number of seconds in [low, high] (see parsing.number)."""
    return p.number(low, high, **options)


def _seconds_text(low: float = 0, high: float = INF, *, low_open: bool = False) -> str:
    """The allowed range of `seconds(low, high)` as the reference page shows it."""
    top = "" if high == INF else f" and <= {high:g}"
    return f"seconds {'>' if low_open else '>='} {low:g}{top}"


def limits_text(raw: str) -> str:
    """Rate limits such as "5 per 15 minutes;20 per day" (checked by the `limits` library),
    or off."""
    from limits import parse_many

    raw = raw.strip()
    if raw.lower() != "off":
        try:
            parse_many(raw)
        except ValueError:
            raise ValueError(f"limits such as '5 per 15 minutes', or off, got {raw!r}") from None
    return raw


# The built-in levels (domain.levels.level_names; settings import nothing of the project).
POOL_LEVELS = ("level:1", "level:2", "level:3", "level:4", "level:5")


def pool_bot_names(raw: str) -> tuple[str, ...]:
    """KELTIS_POOL_BOTS: comma-separated bot names; "none" (or "off") or blank: none."""
    if raw.strip().lower() in ("none", "off"):
        return ()
    return p.name_list(raw)


VARS: tuple[Var, ...] = (
    # ----- Redis ---------------------------------------------------------------------------
    Var("REDIS_URL", "redis_url", p.or_none, None, "a redis:// or unix:// URL",
        "The game store's Redis (unset: the CLI reads var/redis.url, the API "
        "redis://127.0.0.1:6379/0).", secret=True),
    Var("RQ_REDIS_URL", "rq_redis_url", p.or_none, None, "a redis:// or unix:// URL",
        "A standalone Redis for the job queues (unset: the store's own).", secret=True),
    Var("REDIS_CLUSTER", "redis_cluster", p.exactly_one, False, "1 (on), anything else off",
        "1: REDIS_URL names a Redis Cluster (as redis+cluster:// does)."),
    Var("KELTIS_REDIS_POOL_SIZE", "redis_pool_size", p.digits(1), 200, "a whole number >= 1",
        "Connections one client's pool opens at most (per cluster node)."),
    Var("KELTIS_REDIS_POOL_TIMEOUT_S", "redis_pool_timeout_s",
        seconds(0, INF, low_open=True, blank=5.0), 5.0, _seconds_text(low_open=True),
        "Seconds a caller waits for a free pooled connection."),
    Var("KELTIS_DURABLE_REPLICAS", "durable_replicas", p.digits(0), 0, "a whole number >= 0",
        "Replicas a move must reach (WAIT) before it is acknowledged (0: none)."),
    Var("KELTIS_DURABLE_WAIT_MS", "durable_wait_ms", p.digits(1), 1000, "a whole number >= 1",
        "Milliseconds a move waits for those replicas; short of them it is answered 503."),
    # ----- the API ------------------------------------------------------------------------
    Var("KELTIS_FAST_MOVES", "fast_moves", p.not_off, True, "off, anything else on",
        "The fast path for seat-token moves in front of Flask."),
    # Under the 10 s read timeout of many HTTP clients and contract testers (schemathesis'
    # default): a long poll answers before a client that kept its defaults gives up on it.
    Var("KELTIS_MAX_EVENTS_WAIT_S", "max_events_wait_s", seconds(), 8.0, _seconds_text(),
        "The longest wait a long poll of events may ask for."),
    Var("KELTIS_RATE_LIMIT", "rate_limit", str.strip, "1000 per second",
        "limits, e.g. '1000 per second', or off", "Requests per client address (off: none)."),
    Var("KELTIS_QUOTAS", "quotas", p.not_off, True, "off, anything else on",
        "The per-client quotas of games, tournaments and accounts."),
    Var("KELTIS_QUOTA_GAMES", "quota_games", p.text, "60 per minute;2000 per day",
        "limits separated by ';', or off", "Games one client address may create."),
    Var("KELTIS_QUOTA_TOURNAMENTS", "quota_tournaments", p.text, "10 per minute;100 per day",
        "limits separated by ';', or off", "Tournaments one client address may create."),
    Var("KELTIS_QUOTA_ACCOUNTS", "quota_accounts", p.text, "10 per hour",
        "limits separated by ';', or off", "Accounts one client address may create."),
    Var("KELTIS_QUOTA_WAITING_GAMES", "quota_waiting_games", p.text, "20",
        "a whole number, or off", "Games waiting for players one client address may hold."),
    Var("KELTIS_BOT_CPU_BUDGET_ANON", "bot_cpu_budget_anon", p.text,
        "600 per hour;2400 per day", "CPU-second limits separated by ';', or off",
        "Bot CPU seconds per client address of requests without an account key."),
    Var("KELTIS_BOT_CPU_BUDGET_ACCOUNT", "bot_cpu_budget_account", p.text,
        "3600 per hour;14400 per day", "CPU-second limits separated by ';', or off",
        "Bot CPU seconds per account (API, pairing and challenges alike)."),
    Var("KELTIS_METRICS_TOKEN", "metrics_token", p.stripped_or_none, None, "any text",
        "The bearer token /metrics asks for (unset: none asked).", secret=True),
    Var("KELTIS_METRICS_BIND", "metrics_bind", p.stripped_or_none, None, "host:port",
        "A listener of its own for /metrics (unset: on the API's port)."),
    Var("KELTIS_WORKER_METRICS_BIND", "worker_metrics_bind", p.stripped_or_none, None,
        "host:port", "Where `keltis worker` serves its /metrics (unset: nowhere)."),
    Var("PROMETHEUS_MULTIPROC_DIR", "prometheus_multiproc_dir", p.stripped_or_none, None,
        "a directory", "prometheus_client's multiprocess directory (gunicorn's processes)."),
    Var("KELTIS_REQUEST_LOG", "request_log", p.text, "on", "on/stderr, off, or a file path",
        "Where the API writes one JSON line per request."),
    # ----- streams and held requests ------------------------------------------------------
    Var("KELTIS_STREAM_KEEPALIVE_S", "stream_keepalive_s", seconds(), 10.0, _seconds_text(),
        "Seconds between keep-alive lines of an idle stream."),
    Var("KELTIS_STREAM_MAX_S", "stream_max_s", seconds(), 3600.0, _seconds_text(),
        "Seconds a stream lasts at most."),
    Var("KELTIS_STREAM_LEASE_S", "stream_lease_s", seconds(), 30.0, _seconds_text(),
        "Seconds a held request's slot lease lasts between renewals."),
    Var("KELTIS_STREAMS_PER_ADDRESS", "streams_per_address", p.bound_or_off, None,
        "a whole number, or off (0)",
        "Held requests per client address (unset: 32; none for a test app)."),
    Var("KELTIS_STREAMS_PER_ACCOUNT", "streams_per_account", p.bound_or_off, 8,
        "a whole number, or off (0)", "Held requests per account."),
    Var("KELTIS_STREAMS_PER_PROCESS", "streams_per_process", p.bound_or_off, None,
        "a whole number, or off (0)",
        "Held requests per web process (unset: 150; `keltis serve` gives its connections "
        "less a quarter, at most 500, kept for other requests)."),
    # ----- games, logs and archives -------------------------------------------------------
    Var("KELTIS_GAME_EXPIRY_S", "game_expiry_s", seconds(), 86_400.0, _seconds_text(),
        "Seconds a game may wait for its open seats."),
    Var("KELTIS_COMPACT_AFTER_S", "compact_after_s", seconds(), 300.0, _seconds_text(),
        "Seconds a finished game waits before its log is compacted."),
    Var("KELTIS_ARCHIVE_URL", "archive_url", p.or_none, None, "a postgresql:// URL",
        "The archive tier's PostgreSQL (unset: Redis alone).", secret=True),
    Var("KELTIS_ARCHIVE_AFTER", "archive_after_s", p.duration, 86_400.0,
        "seconds, or a number with s, m, h or d",
        "How long a compacted game stays in Redis before it moves to the archive."),
    Var("KELTIS_ARCHIVE_TTL_S", "archive_ttl_s", p.at_least(1), 3600,
        "a whole number of seconds (below 1: 1)", "Seconds a built download archive is kept."),
    Var("KELTIS_DERIVED_TTL_S", "derived_ttl_s", p.at_least(1, fallback=86_400), 86_400,
        "a whole number of seconds (below 1: 1; not a number: the default)",
        "Seconds a game's derived answers are kept after their last write."),
    Var("KELTIS_BUILD_THREADS", "build_threads", p.clamped(1, 8, 1), 1,
        "1 to 8 (held within; not a number: 1)", "Native build threads per web process."),
    Var("KELTIS_ANALYSIS_ITERATIONS", "analysis_iterations", p.clamped(1, 200, 12), 12,
        "1 to 200 (held within; not a number: 12)", "Determinizations per analysed decision."),
    # ----- workers ------------------------------------------------------------------------
    Var("KELTIS_BULK_NICENESS", "bulk_niceness", p.clamped(0, 19, 10, warn=True), 10,
        "0 to 19 (held within; not a number: 10)",
        "How much the bulk worker lowers its priority (0: not at all)."),
    Var("KELTIS_PAIR_EVERY_S", "pair_every_s", seconds(), 1.0, _seconds_text(),
        "Seconds between pairing passes of a worker (0: no pairing thread)."),
    Var("KELTIS_ARENA_EVERY_S", "arena_every_s", seconds(), 0.2, _seconds_text(),
        "Seconds between arena passes of a worker."),
    # ----- webhooks -----------------------------------------------------------------------
    Var("KELTIS_WEBHOOK_CALL_TIMEOUT_S", "webhook_call_timeout_s",
        seconds(0, 3600, low_open=True, blank=5.0), 5.0, _seconds_text(0, 3600, low_open=True),
        "The bound of one webhook call, whatever the game's clock."),
    Var("KELTIS_WEBHOOK_CALLS_PER_ACCOUNT", "webhook_calls_per_account",
        p.integer(1, blank=8), 8, "a whole number >= 1",
        "Webhook calls of one account in flight per worker process."),
    Var("KELTIS_WEBHOOK_CA_FILE", "webhook_ca_file", p.stripped_or_none, None, "a file path",
        "CA bundle webhook calls trust (unset: the system's)."),
    Var("KELTIS_WEBHOOK_ALLOW", "webhook_allow", p.cidr_list, "",
        "comma-separated networks (CIDR)",
        "Non-public networks webhooks may call (unset: public addresses only)."),
    Var("KELTIS_SERVICE_PORT", "service_ports", p.port_list, (), "comma-separated ports",
        "The service's own ports, which webhooks may not call (set by `keltis serve`)."),
    # ----- operator -----------------------------------------------------------------------
    Var("KELTIS_OPERATOR_TOKEN", "operator_token", p.or_none, None, "any text",
        "The operator's token (arenas); unset: no one is the operator.", secret=True),
    # ----- accounts: passwords and sessions -----------------------------------------------
    Var("KELTIS_PASSWORD_TIME_COST", "password_time_cost", p.integer(1, 20, blank=3), 3,
        "1 to 20", "Argon2id passes over memory per password hash (RFC 9106's low-memory "
        "profile: 3)."),
    Var("KELTIS_PASSWORD_MEMORY_KIB", "password_memory_kib",
        p.integer(64, 4_194_304, blank=65_536), 65_536, "64 to 4194304 KiB",
        "Argon2id memory per password hash, in KiB (RFC 9106's low-memory profile: 64 MiB)."),
    Var("KELTIS_SIGN_IN_LIMIT_ACCOUNT", "sign_in_limit_account", limits_text,
        "5 per 15 minutes", "limits separated by ';', or off",
        "Sign-in attempts per account name and client address."),
    Var("KELTIS_SIGN_IN_LIMIT_ADDRESS", "sign_in_limit_address", limits_text, "20 per hour",
        "limits separated by ';', or off", "Sign-in attempts per client address."),
    Var("KELTIS_SESSION_IDLE_S", "session_idle_s", seconds(0, INF, low_open=True),
        2_592_000.0, _seconds_text(low_open=True),
        "Seconds a sign-in session lasts unused (30 days)."),
    # ----- challenges and seeks -----------------------------------------------------------
    Var("KELTIS_CHALLENGES_OPEN_PER_ACCOUNT", "challenges_open_per_account",
        p.integer(1, blank=10), 10, "a whole number >= 1",
        "Open outgoing challenges per account."),
    Var("KELTIS_CHALLENGES_INCOMING_PER_ACCOUNT", "challenges_incoming_per_account",
        p.integer(1, blank=20), 20, "a whole number >= 1",
        "Open incoming challenges per account."),
    Var("KELTIS_CHALLENGE_DECLINE_COOLDOWN_S", "challenge_decline_cooldown_s",
        p.integer(1, blank=600), 600, "a whole number of seconds >= 1",
        "After a decline, how long its challenger waits to challenge that account again."),
    Var("KELTIS_NO_STARTS_PER_DAY", "no_starts_per_day", p.integer(0), 3,
        "a whole number (0: no limit)",
        "Rated games an account may let abort by never moving in 24 h before the pool refuses"
        " its seeks (429 too_many_no_starts)."),
    Var("KELTIS_SEEKS_PER_ACCOUNT", "seeks_per_account", p.integer(0), 3,
        "a whole number (0: no bound)", "Open seeks per account."),
    Var("KELTIS_SEEKS_PER_ADDRESS", "seeks_per_address", p.integer(0), 20,
        "a whole number (0: no bound)", "Open seeks per client address."),
    Var("KELTIS_SEEK_GRACE_S", "seek_grace_s", seconds(), 15.0, _seconds_text(),
        "Seconds a seek outlives its account's last stream."),
    Var("KELTIS_SEEK_SHARED_NETWORKS", "seek_shared_networks", p.cidr_list, "",
        "comma-separated networks (CIDR)",
        "Client networks whose accounts the pool may pair together (unset: none)."),
    Var("KELTIS_SEEK_BASE_RANGE", "seek_base_range", p.number(0, INF), 3.0, "a number >= 0",
        "Rating (ordinal) points a seek accepts at once."),
    Var("KELTIS_SEEK_WIDEN_PER_S", "seek_widen_per_s", p.number(0, INF), 0.5, "a number >= 0",
        "Rating (ordinal) points more per second waited."),
    Var("KELTIS_SEEK_REPEAT_WINDOW_S", "seek_repeat_window_s", seconds(), 600.0,
        _seconds_text(), "Seconds recent opponents are avoided by pairing."),
    Var("KELTIS_POOL_BOTS", "pool_bots", pool_bot_names, POOL_LEVELS,
        "comma-separated bot names, or none",
        "Bots the pairing pool may seat, the closest in rating to the seeker "
        "(default: the five levels; none or empty: no pool bots)."),
    Var("KELTIS_POOL_BOT_WAIT_S", "pool_bot_wait_s", seconds(), 5.0, _seconds_text(),
        "Seconds a seek waits for a person before a pool bot is seated."),
)  # fmt: skip
