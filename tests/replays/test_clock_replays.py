"""Replays of games with turn clocks: timeouts and forfeits verify, and a fallback move that
is not the fallback bot's fails verification even with a recomputed chain."""

from __future__ import annotations

import copy

from application.bots.turns import play_bot_turns
from application.games import clocks
from application.games.service import GameService
from replays.build import build_replay
from replays.chain import build_chain
from replays.verify import verify

CARD = "keltis-card"


class Clock:
    def __init__(self):
        self.now = 0

    def __call__(self) -> int:
        return self.now


def timed_out_game(redis_client, max_timeouts: int = 100) -> tuple[GameService, str]:
    """A person against a bot; the person lets every turn time out until the game ends."""
    service = GameService(redis_client, clock=Clock())
    clock = {"move_seconds": 5, "bank_seconds": 0, "fallback": "greedy"}
    clock["max_timeouts"] = max_timeouts
    players = [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]
    record, _, _ = service.create(CARD, players, {}, clock=clock)
    for _ in range(5000):
        record, _, _ = service.load(record.game_id)
        if record.finished:
            break
        if record.bot_to_move():
            service.clock.now = record.updated_at + 10
            assert play_bot_turns(service, record.game_id, record.version) > 0
        else:
            service.clock.now = record.deadline
            assert clocks.time_out(service, record.game_id, record.version)
    return service, record.game_id


def test_a_game_played_out_by_timeouts_verifies(redis_client):
    service, game_id = timed_out_game(redis_client)
    entries = service.store.load(game_id).entries
    assert sum(e.event["type"] == "turn_timed_out" for e in entries) > 5
    report = verify(build_replay(game_id, entries))
    assert report.ok, report.line()


def test_a_tampered_fallback_move_fails_verification(redis_client):
    service, game_id = timed_out_game(redis_client)
    replay = build_replay(game_id, service.store.load(game_id).entries)
    tampered = copy.deepcopy(replay)
    entries = tampered["entries"]
    position = next(i for i, e in enumerate(entries) if e["e"]["type"] == "turn_timed_out") + 1
    cmd = entries[position]["cmd"]
    # Another command in the fallback move's place (checked before the rules re-decide it).
    entries[position]["cmd"] = {**cmd, "action": "discard" if cmd["action"] == "play" else "play"}
    tampered["chain"] = build_chain(tampered)
    report = verify(tampered)
    assert not report.ok
    assert report.check == "clock", report.line()
    assert report.n == entries[position]["n"]


def test_a_forfeit_at_max_timeouts_verifies_and_ranks_the_seat_last(redis_client):
    service, game_id = timed_out_game(redis_client, max_timeouts=2)
    record = service.load(game_id)[0]
    assert record.forfeited == {0}
    replay = build_replay(game_id, service.store.load(game_id).entries)
    assert replay["result"]["ended"] == "forfeit"
    assert replay["result"]["winners"] == [1]
    report = verify(replay)
    assert report.ok, report.line()
    forged = copy.deepcopy(replay)
    forged["result"]["winners"] = [0]
    forged["chain"] = build_chain(forged)
    assert verify(forged).check == "result"
