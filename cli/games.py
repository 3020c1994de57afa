"""`keltis games --stalled` / `--long`: the games an operator should look at (their bot keeps
failing; they run far beyond a normal length)."""

from __future__ import annotations

import click

from cli.options import redis_url_option, store_url


@click.command()
@redis_url_option
@click.option("--stalled", is_flag=True, help="List the games whose bot turn keeps failing.")
@click.option(
    "--long", "long_", is_flag=True, help="List games in play far beyond a normal length."
)
@click.option(
    "--min-version",
    type=click.IntRange(1),
    default=None,
    help="With --long: the version from which a game is listed (default 600; a normal game "
    "ends by 350).",
)
def games(redis_url, stalled, long_, min_version):
    """List games for an operator: with --stalled, those whose bot failed 3 times at their
    current version (id, version, since, failures, reason), longest stalled first; with
    --long, those in play at --min-version or beyond (id, game, status, version, created,
    seats), longest first."""
    from store.core.connection import store_client

    if stalled == long_:
        raise click.UsageError("say which games: --stalled or --long")
    url = store_url(redis_url)
    if long_:
        _long(store_client(url), min_version)
    else:
        _stalled(store_client(url))


def _stalled(client) -> None:
    from application.games.service import GameService
    from application.games.stalls import stalled_games

    found = stalled_games(GameService(client))
    for game in found:
        click.echo(
            f"{game['id']}\tv{game['version']}\tsince {game['since']}\t"
            f"{game['failures']} failures\t{game['reason']}"
        )
    click.echo(f"{len(found)} stalled game(s)", err=True)


def _long(client, min_version: int | None) -> None:
    from application.games.long_games import LONG_VERSIONS, long_games

    threshold = min_version or LONG_VERSIONS
    found = long_games(client, threshold)
    for game in found:
        seats = ",".join(p.get("bot") or p.get("account") or "person" for p in game["players"])
        click.echo(
            f"{game['id']}\t{game['game']}\t{game['status']}\tv{game['version']}\t"
            f"created {game['created_at']}\t{seats}"
        )
    click.echo(f"{len(found)} game(s) in play at version {threshold} or beyond", err=True)
