"""`keltis arena open|list|close`: the operator's arenas (application.arenas.service).

Without `--server` the command works on the service's Redis directly (`--redis-url`, default
var/redis.url), as the operator who runs it; with `--server URL` it calls the API with the
operator's token (`--token`, default KELTIS_OPERATOR_TOKEN).
"""

from __future__ import annotations

import json

import click

from application.arenas.service import OPERATOR_ENV
from cli.options import redis_url_option, store_url

MINUTE_MS = 60_000


def _redis_store(redis_url):
    from store.arenas.records import ArenaStore
    from store.core.connection import store_client

    return ArenaStore(store_client(store_url(redis_url)))


def _call(server: str, token: str | None, method: str, path: str, body: dict | None = None):
    import requests

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.request(
        method, server.rstrip("/") + path, json=body, headers=headers, timeout=30
    )
    if answer.status_code >= 400:
        raise click.ClickException(f"{answer.status_code}: {answer.text.strip()}")
    return answer.json()


def _local(call, *args):
    """A use case run here; its refusal as the command's error."""
    from domain.errors import KeltisError

    try:
        return call(*args)
    except KeltisError as error:
        raise click.ClickException(f"{error.code}: {error.message}") from error


def _show(arena: dict) -> None:
    window = f"{arena['starts_at']}..{arena['ends_at']}"
    click.echo(
        f"{arena['id']}  {arena['status']:<9}  {arena['game']} x{arena['players']}"
        f"  clock {arena['clock']['move_seconds']}s  window {window}"
        f"  games {arena['games_started']}  {arena['name']}"
    )


server_option = click.option("--server", default=None, help="Call this server's API instead.")
token_option = click.option(
    "--token", envvar=OPERATOR_ENV, default=None, help="The operator's token (with --server)."
)


@click.group()
def arena():
    """Always-on bot arenas: open, list, close (the operator)."""


@arena.command("open")
@click.option("--name", required=True, help="Shown on the arena's page.")
@click.option("--game", default="keltis-card", show_default=True)
@click.option("--players", default=2, show_default=True, help="Seats per game (2-4).")
@click.option("--clock", default=10, show_default=True, help="Seconds per move.")
@click.option("--max-timeouts", default=2, show_default=True, help="Timeouts before a forfeit.")
@click.option("--minutes", default=60, show_default=True, help="How long it runs from now.")
@click.option("--bot", "bots", multiple=True, help="A built-in bot as an entry (repeatable).")
@server_option
@token_option
@redis_url_option
def open_(name, game, players, clock, max_timeouts, minutes, bots, server, token, redis_url):
    """Open an arena now for MINUTES; prints its id."""
    from application.arenas import service as arenas
    from store.core.clock import now_ms

    body = {
        "name": name,
        "game": game,
        "players": players,
        "clock": {"move_seconds": clock, "max_timeouts": max_timeouts},
        "ends_at": now_ms() + minutes * MINUTE_MS,
        "bots": list(bots),
    }
    if server:
        found = _call(server, token, "POST", "/v1/arenas", body)
    else:
        clock_spec = {**arenas.DEFAULT_CLOCK, **body["clock"]}
        found = _local(arenas.open_arena, _redis_store(redis_url), {**body, "clock": clock_spec})
    _show(found)


@arena.command("list")
@click.option("--json", "as_json", is_flag=True, help="The API's JSON.")
@server_option
@redis_url_option
def list_(as_json, server, redis_url):
    """The newest arenas."""
    from application.arenas import service as arenas

    if server:
        found = _call(server, None, "GET", "/v1/arenas?limit=100")["arenas"]
    else:
        found, _ = arenas.list_arenas(_redis_store(redis_url), None, 100)
    if as_json:
        click.echo(json.dumps(found, indent=2))
        return
    for one in found:
        _show(one)


@arena.command("close")
@click.argument("arena_id")
@server_option
@token_option
@redis_url_option
def close(arena_id, server, token, redis_url):
    """Close an arena now: no game starts any more; running ones finish."""
    from application.arenas import service as arenas

    if server:
        found = _call(server, token, "POST", f"/v1/arenas/{arena_id}/close")
    else:
        found = _local(arenas.close, _redis_store(redis_url), arena_id)
    _show(found)
