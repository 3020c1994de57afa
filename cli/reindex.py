"""`keltis reindex`: rebuild every game's index entries from the logs (after an upgrade that
adds index sets, or to repair an index by hand)."""

from __future__ import annotations

import click


@click.command()
@click.option("--redis-url", envvar="REDIS_URL", default=None, help="Default: var/redis.url.")
def reindex(redis_url):
    """Rewrite the listing and bot-turn indexes of every stored game from its log, file
    the finished rated games missing from the ladder for settling, and index the look-alike
    skeleton of accounts made before skeletons were."""
    from application.games import GameService
    from application.name_skeleton import skeleton
    from application.settle import requeue_unsettled
    from store.accounts import AccountStore
    from store.connection import store_client
    from store.locate import NoRedisConfigured, redis_url_from_env

    try:
        url = redis_url or redis_url_from_env()
    except NoRedisConfigured as error:
        raise click.ClickException(str(error)) from error
    service = GameService(store_client(url))
    count = service.rebuild_index()
    click.echo(f"reindexed {count} games")
    unsettled = requeue_unsettled(service)
    if unsettled:
        click.echo(f"{unsettled} finished rated games are filed to settle into the ladder")
    skeletons = AccountStore(service.client).index_skeletons(skeleton)
    if skeletons:
        click.echo(f"indexed the name skeletons of {skeletons} accounts")
