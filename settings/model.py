"""The service's configuration as one frozen, typed object, read from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from settings.fields import VARS, Var
from settings.parsing import SettingsError

ENVIRONMENT, DEFAULT = "environment", "default"


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of the service (settings.fields describes each); `sources` says, per
    variable name, whether its value came from the environment or is the default."""

    redis_url: str | None
    rq_redis_url: str | None
    redis_cluster: bool
    redis_pool_size: int
    redis_pool_timeout_s: float
    durable_replicas: int
    durable_wait_ms: int
    fast_moves: bool
    max_events_wait_s: float
    rate_limit: str
    quotas: bool
    quota_games: str
    quota_tournaments: str
    quota_accounts: str
    quota_waiting_games: str
    bot_cpu_budget_anon: str
    bot_cpu_budget_account: str
    metrics_token: str | None
    metrics_bind: str | None
    worker_metrics_bind: str | None
    prometheus_multiproc_dir: str | None
    request_log: str
    stream_keepalive_s: float
    stream_max_s: float
    stream_lease_s: float
    streams_per_address: int | None
    streams_per_account: int
    streams_per_process: int | None
    game_expiry_s: float
    compact_after_s: float
    archive_url: str | None
    archive_after_s: float
    archive_ttl_s: int
    derived_ttl_s: int
    build_threads: int
    analysis_iterations: int
    bulk_niceness: int
    pair_every_s: float
    arena_every_s: float
    webhook_call_timeout_s: float
    webhook_calls_per_account: int
    webhook_ca_file: str | None
    webhook_allow: str
    service_ports: tuple[int, ...]
    operator_token: str | None
    password_time_cost: int
    password_memory_kib: int
    sign_in_limit_account: str
    sign_in_limit_address: str
    session_idle_s: float
    challenges_open_per_account: int
    challenges_incoming_per_account: int
    challenge_decline_cooldown_s: int
    no_starts_per_day: int
    seeks_per_account: int
    seeks_per_address: int
    seek_grace_s: float
    seek_shared_networks: str
    seek_base_range: float
    seek_widen_per_s: float
    seek_repeat_window_s: float
    pool_bots: tuple[str, ...]
    pool_bot_wait_s: float
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)

    def from_environment(self, name: str) -> bool:
        """Whether the variable `name` was set (and not blank where blank means unset)."""
        return self.sources.get(name) == ENVIRONMENT


def value_of(var: Var, raw: str | None) -> tuple[object, str]:
    """The typed value of one variable and where it came from; SettingsError when refused."""
    if raw is None:
        return var.default, DEFAULT
    try:
        value = var.parse(raw)
    except ValueError as error:
        raise SettingsError(f"{var.name} must be {error}") from None
    return (var.default, DEFAULT) if value is None else (value, ENVIRONMENT)


def from_env(env: Mapping[str, str] | None = None) -> Settings:
    """The settings of `env` (default: this process's environment)."""
    env = os.environ if env is None else env
    values, sources = {}, {}
    for var in VARS:
        values[var.attr], sources[var.name] = value_of(var, env.get(var.name))
    return Settings(**values, sources=sources)
