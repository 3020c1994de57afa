"""A rated game over before every seat made a move of its own is aborted everywhere it is
shown: the game view, its replay (recorded, verified, summarised in words), the ladder's
outcome: no winner, `ended: "aborted"`, derived from the log (no event says so)."""

from __future__ import annotations

import pytest

from application.bots import turns as bots
from application.games.service import ended_by
from gamelog.outcome import VOID_ABORTED, outcome_of
from gamelog.results import ending
from replays.chain import build_chain
from replays.log import parse_log
from replays.text import render_summary
from replays.verify import verify
from tests.api.helpers import bearer
from tests.api.test_game_cancel import move_turn, rated_against_greedy, sign_up

pytestmark = pytest.mark.redis

CARD = "keltis-card"


def test_a_rated_game_resigned_before_the_first_move_shows_aborted_everywhere(app, client):
    creator = sign_up(client)
    game_id = rated_against_greedy(client, creator)  # the account opens: it never moves
    resigned = client.post(f"/v1/games/{game_id}/resign", headers=bearer(creator["key"]))
    assert resigned.status_code == 200, resigned.json
    game = client.get(f"/v1/games/{game_id}").json
    assert game["status"] == "finished"
    assert game["result"]["winners"] == [] and game["result"]["ended"] == "aborted"
    assert game["result"]["forfeited"] == [0] and game["result"]["shared"] is False
    events = client.get(f"/v1/games/{game_id}/events").json["events"]
    assert events[-1]["event"] == {"type": "game_ended_early", "reason": "forfeit"}  # as logged
    record = app.extensions["keltis"].load(game_id)[0]
    assert outcome_of(record).void == VOID_ABORTED and outcome_of(record).winners == ()
    assert ended_by(record) == "aborted"  # the games-ended metric's label
    replay = client.get(f"/v1/games/{game_id}/replay").json
    assert replay["result"] == game["result"]
    report = verify(replay)
    assert report.ok, report.message
    assert "ended by aborted" in report.message and "no winner" in report.message
    assert "won by" not in report.message
    summary = render_summary(replay["header"], replay["result"])
    assert "aborted: a seat never made a move of its own" in summary and "no winner" in summary
    assert ending(replay["result"]) == "aborted"
    assert parse_log(replay["entries"]).moved == frozenset()
    legacy = {**replay, "result": {**replay["result"], "winners": [1], "ended": "forfeit"}}
    legacy["chain"] = build_chain(legacy)  # as exported before aborts were shown
    assert verify(legacy).ok, verify(legacy).message
    forged = {**replay, "result": {**replay["result"], "winners": [0]}}
    forged["chain"] = build_chain(forged)
    assert not verify(forged).ok


def test_a_rated_game_whose_seats_all_moved_keeps_its_forfeit_result(app, client):
    service = app.extensions["keltis"]
    creator = sign_up(client)
    game_id = rated_against_greedy(client, creator)
    move_turn(client, game_id, creator["key"])
    assert bots.play_bot_turns(service, game_id, service.load(game_id)[0].version) > 0
    resigned = client.post(f"/v1/games/{game_id}/resign", headers=bearer(creator["key"]))
    assert resigned.status_code == 200, resigned.json
    result = client.get(f"/v1/games/{game_id}").json["result"]
    assert result["winners"] == [1] and result["ended"] == "forfeit"
    replay = client.get(f"/v1/games/{game_id}/replay").json
    assert replay["result"] == result and verify(replay).ok
    assert parse_log(replay["entries"]).moved == frozenset({0, 1})
    assert outcome_of(service.load(game_id)[0]).void is None


def test_a_replay_reads_own_moves_as_the_record_does():
    """The fallback's move right after a timeout, and moves made for a seat that forfeited,
    are not the seat's own: in the replay's reading of the log as in the record's fold."""
    created = {"type": "game_created", "game": CARD, "players": [{}, {}], "rated": True}
    entries = [
        {"v": 1, "n": 1, "at": 0, "by": None, "e": created},
        {"v": 1, "n": 2, "at": 0, "by": None, "e": {"type": "dealt"}},
        {"v": 1, "n": 3, "at": 1, "by": 0, "cmd": {}, "e": {"type": "x"}},
        {"v": 1, "n": 4, "at": 2, "by": None, "e": {"type": "turn_timed_out", "seat": 1}},
        {"v": 1, "n": 5, "at": 2, "by": 1, "cmd": {}, "e": {"type": "x"}},
        {"v": 1, "n": 6, "at": 3, "by": None, "e": {"type": "seat_forfeited", "seat": 1}},
        {"v": 1, "n": 7, "at": 3, "by": 1, "cmd": {}, "e": {"type": "x"}},
    ]
    log = parse_log(entries)
    assert log.rated and log.moved == frozenset({0})
