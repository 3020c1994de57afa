"""Sealed games (application.games.seals): a game of a duplicate deal is sealed (403
deal_sealed, as the contract says) until every game of its deal has its outcome; a game
outside a tournament, or alone on its deal, never is."""

from __future__ import annotations

import pytest

from application.games import seals
from store.tournaments.records import TournamentStore
from tests.application.documented import answered_status, documented_statuses
from tournaments.errors import DealSealed
from tournaments.standings import GameOutcome

TID = "sealed-tourney"
PLACED = {"id": TID, "index": 1, "deal": 0, "open": False, "deal_games": [0, 1]}


def _record(client, index: int, deal=(0, 1)) -> None:
    outcome = GameOutcome(index, f"g-{index}", (0, 1), (1.0, 0.0), (0,), deal=0)
    TournamentStore(client).record_outcome(TID, outcome, total=10, deal=list(deal))


ALONE = {"id": TID, "index": 0, "deal": 0, "open": False}


@pytest.mark.parametrize("placed", [None, {}, ALONE, {**PLACED, "deal_games": []}])
def test_a_game_outside_a_duplicate_deal_is_never_sealed(private_redis, placed):
    assert not seals.deal_sealed(private_redis, placed)
    seals.require_unsealed(private_redis, placed)


def test_a_deals_game_is_sealed_until_every_game_of_the_deal_is_over(private_redis):
    assert seals.deal_sealed(private_redis, PLACED)
    _record(private_redis, 1)  # its own game over: the other one still plays the deal
    assert seals.deal_sealed(private_redis, PLACED)
    with pytest.raises(DealSealed) as refused:
        seals.require_unsealed(private_redis, PLACED)
    assert answered_status(refused.value) == 403
    assert documented_statuses("deal_sealed") == {403}
    _record(private_redis, 0)
    assert not seals.deal_sealed(private_redis, PLACED)
    seals.require_unsealed(private_redis, PLACED)


def test_a_game_whose_own_outcome_is_out_stays_sealed_while_another_of_its_deal_is_not(
    private_redis,
):
    """Whatever releases the game's own outcome first, the seal reads every deal game."""
    _record(private_redis, 1, deal=[1])
    assert TournamentStore(private_redis).missing_outcomes(TID, [1]) == []
    assert seals.deal_sealed(private_redis, PLACED)
