"""E4-E6, F5, F6 over HTTP: games played by hand (one client per seat) that idle, or that
make just enough progress to reach the turn limit, end by the service rules; the result and
the end event say why, and the replay of each verifies (R3)."""

from __future__ import annotations

import pytest

from domain.endless import IDLE_TURNS, TURN_LIMIT
from replays.verify import verify
from tests.api.helpers import bearer, start_humans
from tests.support.idle_play import card_idle_move, dice_idle_move

PICKERS = {"keltis-card": card_idle_move, "keltis-dice": dice_idle_move}


def play_by_hand(client, game: str, progress_every: int | None) -> tuple[str, dict, int]:
    """Both seats of a new game played over HTTP by the idle picker, trying for progress
    once `progress_every - 1` idle turns are in a row, and on every turn after until it is
    made (the deal is random: now and then no marker can move on the turn that tries);
    (game id, the finished game, the idle turns seen in a row)."""
    game_id, tokens = start_humans(client, game, ["ann", "bea"])
    pick = PICKERS[game]
    longest_idle = 0
    shown = client.get(f"/v1/games/{game_id}").json
    for _ in range(5_000):
        if shown["status"] == "finished":
            return game_id, shown, longest_idle
        view = shown["view"]
        longest_idle = max(longest_idle, view["idle_turns"])
        seat = shown["to_move"]
        moves = client.get(f"/v1/games/{game_id}/moves", headers=bearer(tokens[seat])).json
        progress = bool(progress_every) and view["idle_turns"] >= progress_every - 1
        move = pick(view, moves["moves"], progress)
        posted = client.post(f"/v1/games/{game_id}/moves", json=move, headers=bearer(tokens[seat]))
        assert posted.status_code == 200, posted.json
        shown = posted.json
    raise AssertionError("the game did not end")


def _end_event(client, game_id: str) -> dict:
    """The game's `game_ended` event, read page by page."""
    after = 0
    while True:
        page = client.get(f"/v1/games/{game_id}/events?after={after}").json["events"]
        assert page, "the log has no game_ended event"
        for entry in page:
            if entry["event"]["type"] == "game_ended":
                return entry["event"]
        after = page[-1]["version"]


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_E4_F5_E6_an_idle_loop_by_hand_ends_at_the_30th_idle_turn(app, game):
    client = app.test_client()
    game_id, final, longest = play_by_hand(client, game, progress_every=None)
    assert final["result"]["ended_by"] == "idle_turns"
    assert _end_event(client, game_id)["ended_by"] == "idle_turns"
    assert longest <= IDLE_TURNS  # card: the final round shows the 30
    assert final["view"]["idle_turns"] == IDLE_TURNS
    replay = client.get(f"/v1/games/{game_id}/replay").json
    assert replay["result"]["ended_by"] == "idle_turns"
    report = verify(replay)
    assert report.ok, report.message
    assert "ended by idle_turns" in report.message


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_E5_F6_E6_a_400_turn_game_by_hand_ends_and_its_replay_verifies(app, game):
    client = app.test_client()
    game_id, final, longest = play_by_hand(client, game, progress_every=IDLE_TURNS - 5)
    assert final["result"]["ended_by"] == "turn_limit"
    assert final["view"]["turns"] == TURN_LIMIT
    assert longest < IDLE_TURNS
    assert _end_event(client, game_id)["ended_by"] == "turn_limit"
    report = verify(client.get(f"/v1/games/{game_id}/replay").json)
    assert report.ok, report.message
