"""One account, one seat (application.games.seating): a new game, a join, a tournament's
entries and a rated game's consent, each refused or let through, names compared ignoring
case, and `allow_same_account` only for unrated games."""

from __future__ import annotations

import pytest

from application.games import seating
from application.games.errors import RatedNeedsAccount
from domain.errors import Kind
from gamelog.record import GameRecord
from tests.application.documented import answered_status, documented_statuses

ANNA_TWICE = [{"account": "anna"}, {"bot": "greedy"}, {"account": "Anna"}]


def _record(players, rated=False, allow_same_account=False) -> GameRecord:
    return GameRecord(
        "g1",
        "keltis-card",
        {},
        tuple(players),
        "00",
        0,
        rated=rated,
        allow_same_account=allow_same_account,
    )


def test_a_new_game_seating_distinct_accounts_and_bots_passes():
    players = [{"account": "anna"}, {"account": "bela"}, {"bot": "greedy"}, {"open": True}]
    seating.check_new_game(players, rated=True, allow_same_account=False)


@pytest.mark.parametrize("rated", [True, False])
def test_a_new_game_seating_one_account_twice_ignoring_case_is_refused_422(rated):
    with pytest.raises(seating.AccountSeatedTwice) as refused:
        seating.check_new_game(ANNA_TWICE, rated=rated, allow_same_account=False)
    assert refused.value.code == "account_already_seated"
    assert answered_status(refused.value) == 422
    assert 422 in documented_statuses("account_already_seated")
    assert "seat 2" in refused.value.message and "seat 0" in refused.value.message


def test_an_unrated_game_allowing_it_seats_one_account_twice():
    seating.check_new_game(ANNA_TWICE, rated=False, allow_same_account=True)


def test_a_rated_game_may_not_allow_one_account_twice_even_seating_it_once():
    with pytest.raises(seating.SameAccountUnrated) as refused:
        seating.check_new_game([{"account": "anna"}], rated=True, allow_same_account=True)
    assert refused.value.code == "same_account_rated"
    assert answered_status(refused.value) == 422
    assert documented_statuses("same_account_rated") == {422}


def test_joining_a_game_the_account_sits_in_already_is_a_conflict_409():
    record = _record([{"account": "Anna"}, {"open": True}])
    with pytest.raises(seating.AccountAlreadySeated) as refused:
        seating.check_join(record, "ANNA")
    assert refused.value.code == "account_already_seated"
    assert refused.value.kind is Kind.CONFLICT
    assert answered_status(refused.value) == 409
    assert 409 in documented_statuses("account_already_seated")


def test_joining_passes_for_another_account_or_without_one():
    record = _record([{"account": "anna"}, {"open": True}])
    seating.check_join(record, "bela")
    seating.check_join(record, None)


def test_joining_twice_passes_only_in_an_unrated_game_that_allows_it():
    seating.check_join(_record([{"account": "anna"}, {"open": True}], False, True), "anna")
    rated = _record([{"account": "anna"}, {"open": True}], rated=True, allow_same_account=True)
    with pytest.raises(seating.AccountAlreadySeated):
        seating.check_join(rated, "anna")


def test_a_tournament_entering_one_account_twice_is_refused():
    seating.check_entries(["anna", "bela"])
    with pytest.raises(seating.AccountSeatedTwice) as refused:
        seating.check_entries(["anna", "bela", "ANNA"])
    assert "'ANNA' is entered twice" in refused.value.message
    with pytest.raises(seating.AccountSeatedTwice):
        seating.check_entries(["Anna", "anna"])  # the first one written otherwise


def test_a_rated_game_of_bots_only_needs_an_account():
    bots = [{"bot": "greedy"}, {"bot": "random"}]
    with pytest.raises(RatedNeedsAccount) as refused:
        seating.check_rated_consent(bots, rated=True)
    assert answered_status(refused.value) == 422
    assert documented_statuses("rated_needs_account") == {422}
    seating.check_rated_consent(bots, rated=False)
    seating.check_rated_consent([{"bot": "greedy"}, {"open": True}], rated=True)
    seating.check_rated_consent([{"bot": "greedy"}, {"account": "anna"}], rated=True)
