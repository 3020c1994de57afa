"""`keltis reindex`: rebuild every game's index entries from the logs (after an upgrade that
adds index sets, or to repair an index by hand)."""

from __future__ import annotations

import click

from cli.options import redis_url_option, store_url


@click.command()
@redis_url_option
def reindex(redis_url):
    """Move the open seeks, challenges, two-board matches and the ladder's ratings and log
    from their keys of before they were spread over a cluster's slots, rewrite the listing and
    bot-turn indexes of every stored game from its log, file the finished rated games
    missing from the ladder for settling, and index the look-alike skeleton of accounts
    made before skeletons were."""
    from application.accounts.name_skeleton import skeleton
    from application.games.service import GameService
    from application.games.settle import requeue_unsettled
    from store.accounts.records import AccountStore
    from store.challenges.migrate import move_legacy_challenges
    from store.core.connection import store_client
    from store.ladder.migrate import move_ladder_logs, move_legacy_ladder
    from store.seeks.migrate import move_legacy_seeks

    service = GameService(store_client(store_url(redis_url)))
    seeks = move_legacy_seeks(service.client)
    if seeks:
        click.echo(f"moved {seeks} open seeks to their new keys")
    moved = move_legacy_challenges(service.client)
    if moved:
        click.echo(f"moved {moved} keys of challenges and matches to their new names")
    moved = move_legacy_ladder(service.client)
    if moved:
        click.echo(f"moved {moved} keys of the ladder's ratings to their game types' slots")
    moved = move_ladder_logs(service.client)  # after the ratings: it renumbers their cursors
    if moved:
        click.echo(f"moved {moved} ladder entries to their game types' logs")
    count = service.rebuild_index()
    click.echo(f"reindexed {count} games")
    unsettled = requeue_unsettled(service)
    if unsettled:
        click.echo(f"{unsettled} finished rated games are filed to settle into the ladder")
    skeletons = AccountStore(service.client).index_skeletons(skeleton)
    if skeletons:
        click.echo(f"indexed the name skeletons of {skeletons} accounts")
