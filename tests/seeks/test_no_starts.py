"""No-starts (application.ladder.no_starts) on a real Redis: a seat of an account that never
makes its first move aborts a rated game with no loss, so settling it counts a no-start for
that account (once, however often settled; the first seat to move too, but never a seat
that had no turn), the operator sees it (the metric, `keltis ratings suspicious`), and the
pool refuses the seeks of an account with more than KELTIS_NO_STARTS_PER_DAY of them in
24 h (429 too_many_no_starts, Retry-After) until the oldest is a day old."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from api.games.presenters import minimal_move_result
from application.games import clocks
from application.games.settle import settle
from application.ladder import no_starts
from application.metrics.counters import REGISTRY
from cli.main import cli
from store.ladder.no_starts import NoStartStore
from tests.application.documented import documented_statuses, served

CARD = "keltis-card"
DAY_MS = 24 * 3600 * 1000


def dodged(games, made: dict[str, str], mover: str | None) -> str:
    """A rated game of Ann (seat 0) and Bob (seat 1), both consenting: `mover` (if any)
    makes its first move, then the other seat resigns before its own; the id, settled
    twice."""
    record, _, _ = games.create(
        CARD,
        [{"account": "Ann"}, {"account": "Bob"}],
        {},
        rated=True,
        consenting=frozenset({"ann", "bob"}),
    )
    seat = {"Ann": 0, "Bob": 1}
    if mover is not None:
        move = record.rules.legal_moves(record.state, seat[mover])[0]
        games.play(record.game_id, made[mover], move, minimal_move_result, seat=seat[mover])
    quitter = "Bob" if mover == "Ann" else "Ann"
    clocks.resign(games, record.game_id, made[quitter])
    record, _, _ = games.load(record.game_id)
    assert record.finished and record.ended_early
    for _ in range(2):
        assert settle(games, record) is None  # aborted: no ladder entry
    return record.game_id


@pytest.fixture
def made(pool, accounts):
    keys = {}
    for name in ("Ann", "Bob"):
        signed = accounts.sign_up(name, bot=False, webhook=None)
        pool.records[name] = signed.record
        pool.listen(name)
        keys[name] = signed.key
    return keys


def counted(games, account: str) -> list[str]:
    return [game_id for game_id, _ in NoStartStore(games.client).since(account, 0)]


def test_a_seat_that_never_moved_while_the_other_did_is_one_no_start(games, made):
    before = REGISTRY.get_sample_value("keltis_no_starts_total", {"game": CARD}) or 0.0
    game_id = dodged(games, made, mover="Ann")
    assert counted(games, "bob") == [game_id] and counted(games, "ann") == []
    after = REGISTRY.get_sample_value("keltis_no_starts_total", {"game": CARD})
    assert after - before == 1  # settled twice, counted once


def test_the_first_seat_that_never_moved_is_a_no_start_and_the_other_seat_is_not(games, made):
    game_id = dodged(games, made, mover=None)
    assert counted(games, "ann") == [game_id] and counted(games, "bob") == []


def test_the_pool_refuses_an_account_past_its_no_starts_until_the_oldest_is_a_day_old(
    games, made, pool, clock
):
    limit = 3  # KELTIS_NO_STARTS_PER_DAY's default
    first_at = clock()
    for _ in range(limit):
        dodged(games, made, mover="Ann")
        clock.advance(60)
    pool.seek("Bob")  # at the limit: still welcome
    dodged(games, made, mover="Ann")
    with pytest.raises(no_starts.TooManyNoStarts) as refused:
        pool.seek("Bob")
    assert refused.value.retry_after_s == -(-(first_at + DAY_MS - clock()) // 1000)
    answer = served(refused.value)
    assert answer.status_code == 429 and answer.json["error"]["code"] == "too_many_no_starts"
    assert answer.headers["Retry-After"] == str(refused.value.retry_after_s)
    assert documented_statuses("too_many_no_starts") == {429}
    pool.seek("Ann")  # the seat that moved is no one's dodger
    clock.ms = first_at + DAY_MS + 1  # the oldest is a day old: the limit again
    pool.seek("Bob")


def test_the_operator_sees_the_no_starters(games, made, private_redis_server):
    dodged(games, made, mover="Ann")
    dodged(games, made, mover="Ann")
    dodged(games, made, mover=None)
    found = no_starts.listing(games.client, games.clock() + 1)
    assert [(n.account, n.no_starts) for n in found] == [("bob", 2), ("ann", 1)]
    shown = CliRunner().invoke(
        cli, ["ratings", "suspicious", "--redis-url", private_redis_server.url]
    )
    assert shown.exit_code == 0, shown.output
    assert "no suspicious gains" in shown.output
    rows = [line.split()[:2] for line in shown.output.splitlines()[2:]]
    assert ["bob", "2"] in rows and ["ann", "1"] in rows
