"""One tournament game (application.tournaments.tournament_games): its seats, where it stands
in its tournament, its bots finishing it (a game not started, or one that keeps moving
under the job, refused), and its outcome (refused for a game not over; void once cancelled)."""

from __future__ import annotations

import pytest

from application.games.cancel import cancel_game
from application.games.errors import VersionConflict
from application.tournaments import tournament_games as tg
from tournaments.spec import make_spec

TID = "tourney-02"


@pytest.fixture
def spec():
    return make_spec("keltis-card", ["greedy", "greedy", "random"], 2, 3, "seed-2")


def _created(games, spec, index=0):
    players = tg.players_of(spec, spec.plan(index).entries)
    placed = tg.placement(spec, TID, index)
    record, _, _ = games.create(spec.game, players, {}, seed=b"s" * 32, tournament=placed)
    return record


def test_seats_are_bots_named_by_label_and_accounts_by_name():
    spec = make_spec("keltis-card", ["greedy", "@Anna", "greedy"], 3, 3, "seed-3")
    assert tg.players_of(spec, [2, 1, 0]) == [
        {"name": "greedy#2", "bot": "greedy"},
        {"account": "Anna"},
        {"name": "greedy#1", "bot": "greedy"},
    ]


def test_a_rotation_games_placement_names_no_deal_games(spec):
    placed = tg.placement(spec, TID, 1)
    assert placed == {"id": TID, "index": 1, "deal": spec.plan(1).deal, "open": False}


def test_a_duplicate_games_placement_names_its_deals_games():
    spec = make_spec("keltis-card", ["greedy", "random"], 2, None, "seed-4", format="duplicate")
    placed = tg.placement(spec, TID, 1)
    assert placed["deal_games"] == list(spec.deal_games(1))
    assert 1 in placed["deal_games"] and len(placed["deal_games"]) == 2


def test_the_bots_finish_the_game_and_a_finished_one_comes_back_as_it_is(games, spec):
    record = _created(games, spec)
    finished = tg.finish(games, record)
    assert finished.finished
    assert games.load(record.game_id)[0].version == finished.version
    assert tg.finish(games, finished) is finished


def test_a_game_not_started_is_stuck(games, spec):
    record, _, _ = games.create(spec.game, [{"bot": "greedy"}, {"open": True}], {})
    with pytest.raises(tg.TournamentGameStuck):
        tg.finish(games, record)


def test_a_game_that_keeps_moving_under_the_job_is_a_version_conflict(games, spec, monkeypatch):
    record = _created(games, spec)
    calls = []
    monkeypatch.setattr(games, "append_batch", lambda *a: calls.append(a) and False)
    with pytest.raises(VersionConflict):
        tg.finish(games, record)
    assert len(calls) == tg.MAX_APPEND_ATTEMPTS
    assert games.load(record.game_id)[0].version == record.version


def test_the_outcome_of_a_finished_game(games, spec):
    finished = tg.finish(games, _created(games, spec, index=2))
    outcome = tg.outcome_of(spec, 2, finished)
    assert outcome.index == 2 and outcome.game_id == finished.game_id
    assert outcome.entries == spec.plan(2).entries
    assert outcome.deal == spec.plan(2).deal
    assert len(outcome.scores) == 2 and outcome.winners
    assert outcome.void is None


def test_a_game_not_over_has_no_outcome(games, spec):
    with pytest.raises(tg.TournamentGameStuck):
        tg.outcome_of(spec, 0, _created(games, spec))


def test_a_cancelled_games_outcome_is_void(games, spec):
    record = _created(games, spec)
    assert cancel_game(games, record)
    outcome = tg.outcome_of(spec, 0, games.load(record.game_id)[0])
    assert outcome.void == "cancelled"
