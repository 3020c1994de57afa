"""`keltis games --stalled`: the games an operator should look at (their bot keeps failing)."""

from __future__ import annotations

import click


@click.command()
@click.option("--redis-url", envvar="REDIS_URL", default=None, help="Default: var/redis.url.")
@click.option("--stalled", is_flag=True, help="List the games whose bot turn keeps failing.")
def games(redis_url, stalled):
    """List games for an operator: with --stalled, those whose bot failed 3 times at their
    current version (id, version, since, failures, reason), longest stalled first."""
    from application.games import GameService
    from application.stalls import stalled_games
    from store.connection import store_client
    from store.locate import NoRedisConfigured, redis_url_from_env

    if not stalled:
        raise click.UsageError("say which games: --stalled")
    try:
        url = redis_url or redis_url_from_env()
    except NoRedisConfigured as error:
        raise click.ClickException(str(error)) from error
    found = stalled_games(GameService(store_client(url)))
    for game in found:
        click.echo(
            f"{game['id']}\tv{game['version']}\tsince {game['since']}\t"
            f"{game['failures']} failures\t{game['reason']}"
        )
    click.echo(f"{len(found)} stalled game(s)", err=True)
