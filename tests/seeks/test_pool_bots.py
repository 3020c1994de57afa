"""Pool bots by default: a lone seek gets the level closest to its rating after the default
wait, its answer says which level joins and when, "none" or empty switches them off, and a
person may play rated games against one level all day (the pair limits are for two
accounts). Passes run in-process on a fixed clock (no sleeps)."""

from __future__ import annotations

import pytest

from application.ladder.rated_pairs import may_rate, weighed
from application.seeks import pool_bots
from application.seeks.pairing import DEFAULT_BOT_WAIT_S, DEFAULT_POOL_BOTS, PairingRules
from application.seeks.service import account_seeks, cancel_seek
from application.seeks.worker_pass import PoolSettings
from domain.levels import level_names
from ladder.entries import LadderEntry, LadderSeat
from ladder.pairs import PAIR_DAILY_LIMIT
from settings import from_env
from tests.seeks.conftest import CARD
from tests.seeks.test_pool import _rate, _seated

pytestmark = pytest.mark.redis

LEVELS = PairingRules(pool_bots=DEFAULT_POOL_BOTS)  # the default wait


def test_the_defaults_are_the_levels_after_five_seconds_and_none_switches_them_off():
    assert tuple(level_names()) == DEFAULT_POOL_BOTS
    assert from_env({}).pool_bots == DEFAULT_POOL_BOTS
    assert from_env({}).pool_bot_wait_s == DEFAULT_BOT_WAIT_S == 5.0
    for off in ("none", "None", " off ", ""):
        assert from_env({"KELTIS_POOL_BOTS": off}).pool_bots == ()
    assert from_env({"KELTIS_POOL_BOTS": "greedy,level:3"}).pool_bots == ("greedy", "level:3")


def test_a_lone_seek_gets_the_level_of_its_rating_after_the_default_wait(pool, games, clock):
    pool.account("ann")
    opened = pool.seek("ann", rules=LEVELS)
    # A newcomer (ordinal 0) is closest to level 1's calibrated ordinal in keltis-card.
    assert opened["pool_bots"] == {"bots": ["level:1"], "joins_in_s": 5.0, "refused": None}
    clock.advance(DEFAULT_BOT_WAIT_S - 0.1)
    assert pool.run(PoolSettings(LEVELS)).games == []
    listed = account_seeks(games, pool.records["ann"], LEVELS)[0]["pool_bots"]
    assert listed == {"bots": ["level:1"], "joins_in_s": 0.1, "refused": None}
    clock.advance(0.1)
    made = pool.run(PoolSettings(LEVELS)).games
    assert len(made) == 1 and _seated(games, made[0]) == ["ann", "bot:level:1"]
    record, _, _ = games.load(made[0])
    assert record.rated
    assert account_seeks(games, pool.records["ann"], LEVELS)[0]["pool_bots"] is None  # playing


@pytest.mark.parametrize(
    ("game", "mu", "level"),
    [(CARD, 29.0, "level:3"), (CARD, 40.0, "level:5"), ("keltis-dice", 30.0, "level:2")],
)
def test_a_rated_seeker_meets_the_level_closest_to_its_rating(pool, games, clock, game, mu, level):
    pool.account("ann")
    _rate(games.client, game, "ann", mu, sigma=3.0)  # ordinal mu - 9
    opened = pool.seek("ann", rules=LEVELS, game=game)
    assert opened["pool_bots"]["bots"] == [level]
    clock.advance(DEFAULT_BOT_WAIT_S)
    made = pool.run(PoolSettings(LEVELS)).games
    assert _seated(games, made[0]) == ["ann", f"bot:{level}"]


def test_with_pool_bots_off_a_lone_seek_waits(pool, games, clock):
    off = PairingRules(pool_bots=())
    pool.account("ann")
    assert pool.seek("ann", rules=off)["pool_bots"] is None
    clock.advance(600)
    pool.listen("ann")
    assert pool.run(PoolSettings(off)).games == []
    assert account_seeks(games, pool.records["ann"], off)[0]["playing"] == 0


def test_a_person_keeps_getting_rated_games_against_one_level_all_day(pool, games, clock):
    """The daily limit and 1/k weights are for two accounts: a built-in bot cannot collude,
    so every pool game against it is rated and counts in full."""
    pool.account("ann")
    _rate(games.client, CARD, "ann", 29.0, sigma=3.0)
    for _ in range(PAIR_DAILY_LIMIT + 2):
        seek = pool.seek("ann", rules=LEVELS)
        clock.advance(DEFAULT_BOT_WAIT_S)
        made = pool.run(PoolSettings(LEVELS)).games
        assert len(made) == 1 and _seated(games, made[0]) == ["ann", "bot:level:3"]
        record, _, _ = games.load(made[0])
        assert record.rated
        cancel_seek(games, pool.records["ann"], seek["id"])
        clock.advance(60)
        pool.listen("ann")
    players = [{"account": "ann"}, {"name": "level:3", "bot": "level:3"}]
    assert may_rate(games.client, CARD, players, "one-more", clock())
    seats = (
        LadderSeat("ann", False, 90, 1, True, False),
        LadderSeat("level:3", True, 80, 2, False, False),
    )
    entry = LadderEntry("g-ann", CARD, clock(), seats)
    assert weighed(games.client, entry, short=False).pair_game == 1


def test_levels_are_compared_by_their_calibration_and_other_bots_by_the_ladder(pool, games):
    from store.ladder.records import LadderStore

    found = pool_bots.ordinals(LadderStore(games.client), [CARD], ["level:2", "greedy"])
    assert found[(CARD, "level:2")] == pytest.approx(25.363 - 3 * 3.095)
    assert (CARD, "greedy") not in found  # unrated: pairing takes 0


def test_pool_bots_the_account_budget_cannot_pay_for_are_said_not_to_join(
    pool, games, clock, monkeypatch
):
    """The seek's answer never promises a bot the pass would be refused: with the bot CPU
    budget spent it says why none joins (`refused`), the pass seats none, and the seek stays
    open for a person; once the budget pays for the bot again, the answer and the pass agree
    that it joins."""
    from application.budget.service import Payer, account_budgets

    monkeypatch.setenv("KELTIS_BOT_CPU_BUDGET_ACCOUNT", "2 per hour")
    budgets = account_budgets(games.client)
    ticket = budgets.admit(Payer.of("", "ann"), 2.0)  # the hour's 2 CPU-seconds, spent
    pool.account("ann")
    opened = pool.seek("ann", rules=LEVELS)["pool_bots"]
    assert opened["bots"] == ["level:1"]
    refused = opened["refused"]
    assert refused["code"] == "cpu_budget_exceeded"
    assert refused["remaining_seconds"] == 0 and refused["budget_seconds"] == 2
    assert 1 <= refused["retry_after_s"] <= 3600
    clock.advance(DEFAULT_BOT_WAIT_S)
    assert pool.run(PoolSettings(LEVELS), budgets=budgets).games == []
    listed = account_seeks(games, pool.records["ann"], LEVELS)
    assert listed[0]["pool_bots"]["refused"]["code"] == "cpu_budget_exceeded"
    assert listed[0]["games"] == [] and listed[0]["status"] == "open"
    budgets.refund(ticket)  # the budget pays again (a refund, or a new window)
    listed = account_seeks(games, pool.records["ann"], LEVELS)
    assert listed[0]["pool_bots"]["refused"] is None
    clock.advance(DEFAULT_BOT_WAIT_S)  # a refused pass made the seek wait again
    made = pool.run(PoolSettings(LEVELS), budgets=budgets).games
    assert len(made) == 1 and _seated(games, made[0]) == ["ann", "bot:level:1"]
