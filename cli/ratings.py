"""`keltis ratings rebuild`: re-fold each game type's whole ladder log and replace the stored
ratings with the result (they must come out the same: the stored ratings are that fold, made
entry by entry). `keltis ratings suspicious`: the accounts that won quickly over one opponent again
and again (application.ladder.rated_pairs), for the operator to look at."""

from __future__ import annotations

import click

from cli.options import redis_url_option, store_url


@click.group()
def ratings():
    """The rating ladder (a log of rated games' results per game type; ratings are its fold)."""


@ratings.command()
@redis_url_option
def rebuild(redis_url):
    """Fold each game type's ladder log from its first entry and store the ratings it gives;
    reports how many stored ratings differed from the re-fold (0: reproduced exactly), and
    repairs the accounts' rating histories to the re-fold's steps."""
    from store.ladder.records import LadderStore

    done = LadderStore(_client(redis_url)).rebuild()
    click.echo(
        f"folded {done.entries} ladder entries into {done.ratings} ratings;"
        f" {done.differing} stored ratings differed;"
        f" {done.history_points} rating history points, {done.history_differing} repaired"
    )


@ratings.command()
@redis_url_option
@click.option(
    "--hours",
    type=click.IntRange(1, 168),
    default=24,
    show_default=True,
    help="How far back to look (results are kept a week).",
)
@click.option(
    "--min-wins",
    type=click.IntRange(1),
    default=3,
    show_default=True,
    help="Quick wins over one opponent that make a gain suspicious.",
)
def suspicious(redis_url, hours, min_wins):
    """List suspicious gains: accounts with at least --min-wins quick wins (the loser
    resigned or timed out, or the game was short) over one opponent in the last --hours,
    with the pair's rated games and the ordinal the winner gained in its wins; then the
    accounts with no-starts (rated games aborted because their seat never moved)."""
    from application.ladder.rated_pairs import suspicious as find
    from store.core.clock import now_ms

    client = _client(redis_url)
    found = find(client, now_ms(), hours * 3600 * 1000, min_wins)
    if not found:
        click.echo(f"no suspicious gains in the last {hours} h")
    else:
        click.echo(f"{'game':<12} {'winner':<24} {'loser':<24} quick_wins games gained")
    for gain in found:
        click.echo(
            f"{gain.game:<12} {_name(gain.winner):<24} {_name(gain.loser):<24}"
            f" {gain.quick_wins:>10} {gain.games:>5} {gain.gained:>+6.2f}"
        )
    _no_starts(client, hours)


def _no_starts(client, hours: int) -> None:
    """The accounts whose seats never moved in rated games that were aborted (no-starts)."""
    from application.ladder.no_starts import listing
    from store.core.clock import now_ms

    found = listing(client, now_ms(), hours * 3600 * 1000)
    if not found:
        click.echo(f"no no-starts in the last {hours} h")
        return
    click.echo(f"{'account':<24} no_starts last_game")
    for starter in found:
        click.echo(f"{starter.account:<24} {starter.no_starts:>9} {starter.game_ids[-1]}")


def _name(participant: str) -> str:
    """An account's folded name from its participant id (ladder.entries.participant_id)."""
    return participant.removeprefix("account:")


def _client(redis_url: str | None):
    """The store's Redis client (`store_url`)."""
    from store.core.connection import store_client

    return store_client(store_url(redis_url))
