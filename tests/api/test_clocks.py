"""Turn clocks over HTTP: the clock's bounds, the deadline shown, timeouts with the fallback
bot's move, forfeits at max_timeouts, resignation, and the result of a forfeited game."""

from __future__ import annotations

import pytest

from application.bots.turns import play_bot_turns
from application.games import clocks
from application.games.service import GameService
from tests.api.helpers import bearer

CARD = "keltis-card"
DICE = "keltis-dice"
CLOCK = {"move_seconds": 10, "bank_seconds": 0, "fallback": "random", "max_timeouts": 2}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: int):
        self.now = now

    def __call__(self) -> int:
        return self.now


def created(client, players, clock=CLOCK, game=CARD):
    body = {"game": game, "players": players}
    if clock is not None:
        body["clock"] = clock
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.json
    return response.json["id"], {s["seat"]: s["token"] for s in response.json["seats"]}


@pytest.mark.parametrize(
    "clock",
    [
        {"move_seconds": 0},
        {"move_seconds": 86401},
        {"move_seconds": 5, "bank_seconds": -1},
        {"move_seconds": 5, "bank_seconds": 86401},
        {"move_seconds": 5, "max_timeouts": 0},
        {"move_seconds": 5, "max_timeouts": 101},
        {"move_seconds": 5, "fallback": "nobody"},
        {"move_seconds": 5, "extra": 1},
        {"bank_seconds": 5},
        {"move_seconds": 1.5},
    ],
)
def test_a_clock_out_of_bounds_is_refused(client, clock):
    body = {"game": CARD, "players": [{"name": "ann"}, {"name": "bea"}], "clock": clock}
    response = client.post("/v1/games", json=body)
    assert response.status_code == 422
    expected = "invalid_clock" if clock.get("fallback") == "nobody" else "invalid_request"
    assert response.json["error"]["code"] == expected


def test_the_deadline_is_the_last_entry_plus_move_time_and_null_without_a_clock(client):
    game_id, _ = created(client, [{"name": "ann"}, {"name": "bea"}])
    game = client.get(f"/v1/games/{game_id}").json
    assert game["clock"] == CLOCK
    assert game["deadline"] == game["updated_at"] + 10_000
    assert [p["timeouts"] for p in game["players"]] == [0, 0]
    assert [p["forfeited"] for p in game["players"]] == [False, False]
    unclocked = client.post("/v1/games", json={"game": CARD, "players": [{"name": "a"}] * 2})
    assert client.get(f"/v1/games/{unclocked.json['id']}").json["deadline"] is None
    waiting = client.post(
        "/v1/games",
        json={"game": CARD, "players": [{"name": "a"}, {"open": True}], "clock": CLOCK},
    )
    assert client.get(f"/v1/games/{waiting.json['id']}").json["deadline"] is None


def test_the_bank_pays_for_a_late_move_and_what_is_left_extends_the_deadline(client, redis_client):
    clock = {**CLOCK, "bank_seconds": 30}
    game_id, tokens = created(client, [{"name": "ann"}, {"name": "bea"}], clock)
    service = GameService(redis_client, clock=Clock(0))
    record, _, _ = service.load(game_id)
    assert record.deadline == record.updated_at + 40_000
    seat = record.to_move
    move = record.rules.legal_moves(record.state, seat)[0]
    service.clock.now = record.updated_at + 25_000  # 15 s of overage
    service.play(game_id, tokens[seat], move, lambda *a: {})
    after, _, _ = service.load(game_id)
    assert after.bank_ms[seat] == 15_000
    assert after.bank_ms[1 - seat] == 30_000


def test_a_timeout_appends_one_batch_with_the_fallback_move(client, redis_client):
    game_id, _ = created(client, [{"name": "ann"}, {"name": "bea"}])
    service = GameService(redis_client, clock=Clock(0))
    record, _, _ = service.load(game_id)
    service.clock.now = record.deadline - 1
    assert not clocks.time_out(service, game_id)
    service.clock.now = record.deadline
    assert clocks.time_out(service, game_id)
    assert not clocks.time_out(service, game_id, record.version)  # once per version
    entries = service.entries_after(game_id, record.version, 100)
    seat = record.to_move
    assert entries[0].event == {
        "type": "turn_timed_out",
        "seat": seat,
        "version": record.version,
        "reason": "deadline",
    }
    assert entries[1].by == seat
    assert entries[1].cmd == clocks.fallback_move(record, seat, record.version)
    assert {entry.at for entry in entries} == {record.deadline}
    game = client.get(f"/v1/games/{game_id}").json
    assert game["players"][seat]["timeouts"] == 1
    assert game["version"] == entries[-1].n


def test_max_timeouts_forfeits_and_a_two_player_game_ends_won_by_the_other(client, redis_client):
    game_id, tokens = created(client, [{"name": "ann"}, {"name": "bea"}])
    service = GameService(redis_client, clock=Clock(0))
    record, _, _ = service.load(game_id)
    loser = record.to_move
    for _ in range(CLOCK["max_timeouts"]):
        record, _, _ = service.load(game_id)
        while record.to_move != loser:  # the other seat plays its turn at once
            move = record.rules.legal_moves(record.state, record.to_move)[0]
            service.clock.now = record.updated_at
            service.play(game_id, tokens[record.to_move], move, lambda *a: {})
            record, _, _ = service.load(game_id)
        service.clock.now = record.deadline
        assert clocks.time_out(service, game_id)
    game = client.get(f"/v1/games/{game_id}").json
    assert game["status"] == "finished"
    assert game["deadline"] is None and game["to_move"] is None
    assert game["players"][loser]["forfeited"] is True
    assert game["result"]["winners"] == [1 - loser]
    assert game["result"]["ended"] == "forfeit"
    assert game["result"]["ranking"][-1] == {"seat": loser, "score": None, "forfeited": True}
    kinds = [e.event["type"] for e in service.entries_after(game_id, 0, 1000)]
    assert kinds[-2:] == ["seat_forfeited", "game_ended_early"]
    move = client.post(f"/v1/games/{game_id}/moves", json={"action": "x"}, headers=bearer("x"))
    assert move.status_code == 401
    refused = client.post(
        f"/v1/games/{game_id}/moves",
        json={"action": "draw", "source": "deck"},
        headers=bearer(tokens[1 - loser]),
    )
    assert refused.status_code == 409 and refused.json["error"]["code"] == "game_over"


def test_resign_needs_a_seat_token_and_ends_a_two_player_game(client):
    game_id, tokens = created(client, [{"name": "ann"}, {"name": "bea"}])
    assert client.post(f"/v1/games/{game_id}/resign").status_code == 401
    resigned = client.post(f"/v1/games/{game_id}/resign", headers=bearer(tokens[0]))
    assert resigned.status_code == 200
    assert resigned.json["status"] == "finished"
    assert resigned.json["result"]["winners"] == [1]
    assert resigned.json["result"]["forfeited"] == [0]
    again = client.post(f"/v1/games/{game_id}/resign", headers=bearer(tokens[1]))
    assert again.status_code == 409 and again.json["error"]["code"] == "game_over"
    replay = client.get(f"/v1/games/{game_id}/replay")
    assert replay.status_code == 200


def test_a_forfeited_seat_is_played_by_its_fallback_and_ranks_last(client, redis_client):
    """Three seats: one resigns, the bot jobs play its turns; the game is played to its end
    and the forfeited seat ranks last whatever its score."""
    players = [{"name": "ann"}, {"name": "bea"}, {"name": "cid"}]
    game_id, tokens = created(client, players, clock=None)
    service = GameService(redis_client)
    assert client.post(f"/v1/games/{game_id}/resign", headers=bearer(tokens[2])).status_code == 200
    refused = client.post(
        f"/v1/games/{game_id}/moves", json={"action": "pass"}, headers=bearer(tokens[2])
    )
    assert refused.status_code == 409 and refused.json["error"]["code"] == "seat_forfeited"
    for _ in range(3000):
        record, _, _ = service.load(game_id)
        if record.finished:
            break
        if record.to_move == 2:
            assert play_bot_turns(service, game_id, record.version) > 0
            continue
        move = record.rules.legal_moves(record.state, record.to_move)[0]
        service.play(game_id, tokens[record.to_move], move, lambda *a: {})
    game = client.get(f"/v1/games/{game_id}").json
    assert game["status"] == "finished"
    result = game["result"]
    assert result["forfeited"] == [2]
    assert result["ranking"][-1]["seat"] == 2 and result["ranking"][-1]["forfeited"]
    assert 2 not in result["winners"]
    assert len(result["scores"]) == 3
    assert any(e.by == 2 for e in service.entries_after(game_id, 0, 5000))
