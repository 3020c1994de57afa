"""The keys of each capability spread over a Redis Cluster's slots: the keys of two different
accounts, games, seeks, arenas or payers, built with store.keys, can land on different slots
(CLUSTER KEYSLOT, computed as the cluster does: CRC16 of the hash tag), while the keys one
script names together share one (docs/OPERATIONS.md, "Hash tags")."""

from __future__ import annotations

from redis.crc import key_slot

from store import keys


def slot(key: str) -> int:
    return key_slot(key.encode())


def differ(build, first: str, second: str) -> bool:
    return slot(build(first)) != slot(build(second))


def test_games_spread_by_game():
    assert differ(keys.log, "game-one", "game-two")
    assert slot(keys.log("g1")) == slot(keys.tokens("g1")) == slot(keys.game_channel("g1"))


def test_accounts_spread_by_account():
    assert differ(keys.account, "ann", "bea")
    assert differ(keys.account_channel, "ann", "bea")


def test_seeks_spread_by_seek_account_and_address():
    assert differ(keys.seek, "seek-one", "seek-two")
    assert differ(keys.seeks_of_account, "ann", "bea")
    assert differ(keys.seeks_of_address, "10.0.0.1", "10.0.0.2")
    assert differ(keys.seek_recent, "ann", "bea")
    shards = {slot(keys.seeks_open(n)) for n in range(keys.OPEN_SHARDS)}
    assert len(shards) == keys.OPEN_SHARDS
    # One seek's keys share its slot: its claim script names them together.
    own = {slot(k("s1")) for k in (keys.seek, keys.seek_playing, keys.seek_games)}
    assert len(own) == 1
    # An account's open seeks and recent opponents sit in its account's slot.
    assert slot(keys.seeks_of_account("ann")) == slot(keys.account("ann"))
    assert slot(keys.seeks_of_address("10.0.0.1")) == slot(keys.client_held("10.0.0.1"))


def test_arenas_spread_by_arena():
    assert differ(keys.arena_meta, "arena-one", "arena-two")
    assert slot(keys.arena_meta("r1")) == slot(keys.arena_free("r1"))


def test_budgets_spread_by_payer():
    assert slot(keys.cpu_budget_counter("acct:ann", "hour", 1)) != slot(
        keys.cpu_budget_counter("acct:bea", "hour", 1)
    )


def test_holds_spread_by_client_address():
    assert differ(keys.client_held, "10.0.0.1", "10.0.0.2")


def test_challenges_spread_by_challenge_and_account():
    assert differ(keys.challenge, "challenge-one", "challenge-two")
    assert differ(keys.challenges_in, "ann", "bea")
    assert differ(keys.challenges_out, "ann", "bea")
    assert slot(keys.challenge_pair("ann", "bea")) != slot(keys.challenge_pair("bea", "ann"))
    # The challenger's side of an opening is one script: its outgoing, pair marks, cooldowns.
    side = {keys.challenges_out("ann"), keys.challenge_pair("ann", "bea")}
    side.add(keys.challenge_cooldown("ann", "cid"))
    assert {slot(k) for k in side} == {slot(keys.account("ann"))}
    assert differ(keys.match, "match-one", "match-two")


def test_the_ladder_spreads_by_game_type():
    assert differ(keys.ladder_ratings, "keltis-card", "keltis-dice")
    # The results too: each game type appends to a log of its own, on its own slot.
    assert differ(keys.ladder_log, "keltis-card", "keltis-dice")
    assert differ(keys.ladder_games, "keltis-card", "keltis-dice")
    # One game type's append names its log and games hash; its fold names its cursor,
    # ratings, board and histories, and reads its log: all on the game type's one slot.
    for game in ("keltis-card", "keltis-dice"):
        together = {keys.ladder_log(game), keys.ladder_games(game), keys.ladder_cursor(game)}
        together |= {keys.ladder_ratings(game), keys.ladder_board(game)}
        together |= {keys.ladder_history(game, "acct:a"), keys.ladder_moving(game)}
        assert {slot(k) for k in together} == {slot(keys.ladder_ratings(game))}
