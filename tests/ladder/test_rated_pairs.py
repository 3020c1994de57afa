"""Rated games between the same two accounts on a real Redis (application.ladder.rated_pairs): the
daily limit counts a game once however often its creation is retried, a result settled
twice is kept and reported once, and a pair's result past the limit that creation could
not see (its second account joined an open seat) moves no rating."""

from __future__ import annotations

from application.games import clocks
from application.games.settle import settle, settle_due
from application.ladder.rated_pairs import may_rate
from application.metrics.counters import REGISTRY
from ladder.pairs import PAIR_DAILY_LIMIT, PairResult
from store.ladder.rated_pairs import RatedPairStore
from store.ladder.records import LadderStore
from tests.ladder.conftest import CARD, DICE, move_once

A, B = "account:ann", "account:bob"
NOW = 1_700_000_000_000


def two(first: str = "Ann", second: str = "Bob") -> list[dict]:
    return [{"account": first}, {"account": second}]


def test_the_daily_limit_counts_a_game_once_and_each_game_type_apart(private_redis):
    for n in range(PAIR_DAILY_LIMIT):
        assert may_rate(private_redis, CARD, two(), f"g{n}", NOW + n)
        assert may_rate(private_redis, CARD, two("bob", "ANN"), f"g{n}", NOW + n)  # a retry
    assert not may_rate(private_redis, CARD, two(), "g-late", NOW + 100)
    assert may_rate(private_redis, DICE, two(), "d1", NOW + 100)
    assert may_rate(private_redis, CARD, [{"account": "Ann"}, {"bot": "greedy"}], "b", NOW)
    a_day_later = NOW + 24 * 3600 * 1000 + 1
    assert may_rate(private_redis, CARD, two(), "g-next-day", a_day_later)


def resigned_duel(games, made: dict[str, str]) -> str:
    """A rated game Ann and Bob both asked for, Ann resigning once both moved; its id."""
    record, _, _ = games.create(CARD, two(), {}, rated=True, consenting=frozenset({"ann", "bob"}))
    move_once(games, record.game_id, {0: made["Ann"], 1: made["Bob"]})
    clocks.resign(games, record.game_id, made["Ann"])
    return record.game_id


def test_a_result_settled_twice_is_kept_and_reported_once(games, accounts, private_redis):
    made = {name: accounts.sign_up(name, bot=False, webhook=None).key for name in ("Ann", "Bob")}
    before = REGISTRY.get_sample_value("keltis_suspicious_gains_total", {"game": CARD}) or 0.0
    ids = [resigned_duel(games, made) for _ in range(3)]
    settle_due(games)
    record, _, _ = games.load(ids[-1])
    again = settle(games, record)
    assert again is not None and not again.new
    after = REGISTRY.get_sample_value("keltis_suspicious_gains_total", {"game": CARD})
    assert after - before == 1  # the third quick win, once
    entries = LadderStore(private_redis).entries()
    assert [entry.pair_game for entry in entries] == [1, 2, 3]
    kept = RatedPairStore(private_redis).results(CARD, (A, B), 0)
    assert [(r.game_id, r.winner, r.loser, r.quick) for r in kept] == [
        (game_id, B, A, True) for game_id in ids
    ]


def test_a_result_past_the_pairs_limit_moves_no_rating(games, accounts, private_redis):
    made = {name: accounts.sign_up(name, bot=False, webhook=None).key for name in ("Ann", "Bob")}
    game_id = resigned_duel(games, made)  # created rated: the pair began no game today
    record, _, _ = games.load(game_id)
    pairs = RatedPairStore(private_redis)
    for n in range(PAIR_DAILY_LIMIT):  # ten results settled before it that creation missed
        pairs.record(CARD, (A, B), PairResult(f"x{n}", record.updated_at - 1000 + n, B, A, False))
    settle_due(games)
    ladder = LadderStore(private_redis)
    assert [entry.pair_game for entry in ladder.entries()] == [PAIR_DAILY_LIMIT + 1]
    assert ladder.all_ratings() == {}
