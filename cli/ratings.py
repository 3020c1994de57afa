"""`keltis ratings rebuild`: re-fold the whole ladder log and replace the stored ratings with
the result (they must come out the same: the stored ratings are that fold, made entry by
entry)."""

from __future__ import annotations

import click


@click.group()
def ratings():
    """The rating ladder (one log of rated games' results; ratings are its fold)."""


@ratings.command()
@click.option("--redis-url", envvar="REDIS_URL", default=None, help="Default: var/redis.url.")
def rebuild(redis_url):
    """Fold the ladder's log from its first entry and store the ratings it gives; reports how
    many stored ratings differed from the re-fold (0: reproduced exactly), and repairs the
    accounts' rating histories to the re-fold's steps."""
    from store.connection import store_client
    from store.ladder import LadderStore
    from store.locate import NoRedisConfigured, redis_url_from_env

    try:
        url = redis_url or redis_url_from_env()
    except NoRedisConfigured as error:
        raise click.ClickException(str(error)) from error
    done = LadderStore(store_client(url)).rebuild()
    click.echo(
        f"folded {done.entries} ladder entries into {done.ratings} ratings;"
        f" {done.differing} stored ratings differed;"
        f" {done.history_points} rating history points, {done.history_differing} repaired"
    )
