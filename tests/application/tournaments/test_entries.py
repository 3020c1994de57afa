"""Consent to a tournament (application.tournaments.entries): the organiser's own account
enters at creation, every other account entry is invited; an invited account enters (again:
no change), one not among the entries is refused, and nobody enters a tournament that is
over (cancelled, or every game played)."""

from __future__ import annotations

import pytest

from application.tournaments import entries
from store.tournaments.records import TournamentStore
from tests.application.documented import answered_status, documented_statuses
from tournaments.errors import NotInvited, TournamentOver
from tournaments.spec import make_spec
from tournaments.standings import GameOutcome

TID = "tourney-01"


@pytest.fixture
def store(private_redis) -> TournamentStore:
    return TournamentStore(private_redis)


def _open(store, entrant, bots=("@Anna", "@Bela", "greedy"), games=3):
    spec = make_spec("keltis-card", list(bots), 2, games, "seed-1")
    entries.invite(store, TID, spec, entrant)
    store.create(TID, spec)
    return spec


def test_the_creators_own_account_is_entered_and_the_others_invited(store):
    _open(store, "ANNA")
    assert store.entries(TID) == {"Anna": "entered", "Bela": "invited"}
    assert entries.waiting(store, TID)


def test_without_the_creators_key_every_account_is_invited(store):
    _open(store, None)
    assert store.entries(TID) == {"Anna": "invited", "Bela": "invited"}


def test_bots_only_have_no_entries_and_wait_for_nobody(store):
    _open(store, None, bots=("greedy", "random"))
    assert store.entries(TID) == {}
    assert not entries.waiting(store, TID)


def test_entering_says_whether_the_tournament_may_start(store):
    _open(store, None)
    assert entries.enter(store, TID, "anna") is False  # Bela is still invited
    assert entries.waiting(store, TID)
    assert entries.enter(store, TID, "BELA") is True
    assert not entries.waiting(store, TID)
    assert store.entries(TID) == {"Anna": "entered", "Bela": "entered"}


def test_entering_a_second_time_changes_nothing(store):
    _open(store, "anna")
    assert entries.enter(store, TID, "Bela") is True
    assert entries.enter(store, TID, "Bela") is True
    assert store.entries(TID) == {"Anna": "entered", "Bela": "entered"}


def test_an_account_not_among_the_entries_is_not_invited(store):
    _open(store, None)
    with pytest.raises(NotInvited) as refused:
        entries.enter(store, TID, "carla")
    assert "'carla'" in refused.value.message
    assert answered_status(refused.value) == 403 and documented_statuses("not_invited") == {403}
    assert "carla" not in store.entries(TID)


def test_nobody_enters_a_cancelled_tournament(store):
    _open(store, None)
    store.cancel(TID)
    with pytest.raises(TournamentOver) as refused:
        entries.enter(store, TID, "anna")
    assert answered_status(refused.value) == 409
    assert documented_statuses("tournament_over") == {409}
    assert store.entries(TID)["Anna"] == "invited"


def test_nobody_enters_a_tournament_whose_games_are_all_played(store):
    spec = _open(store, "anna", games=1)
    planned = spec.plan(0)
    outcome = GameOutcome(0, "g-0", planned.entries, (1.0, 0.0), (0,))
    store.record_outcome(TID, outcome, spec.games)
    with pytest.raises(TournamentOver):
        entries.enter(store, TID, "bela")
