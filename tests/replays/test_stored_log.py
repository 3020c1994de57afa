"""Replays built from the service's real Redis log (application.games.service), not from a
simulation."""

from __future__ import annotations

import json
import random

import pytest

from replays.build import build_replay
from replays.errors import GameNotFinished
from replays.verify import verify
from tests.replays.conftest import finished_entries

pytestmark = pytest.mark.redis


def _play_stored_game(client, game: str, seed: int) -> tuple[str, list, list]:
    """A bot-seated game played through GameService: its id, a mid-game log, the full log."""
    from application.accounts.auth import Actor
    from application.games.service import GameService

    service = GameService(client)
    record, _, _ = service.create(game, [{"bot": "random"}, {"bot": "greedy"}], {})
    rng = random.Random(seed)
    mid_game = None
    while not record.finished:
        rules, seat = record.rules, record.to_move
        bot = rules.bots[record.players[seat]["bot"]]
        command = bot(rules.view(record.state, seat), rules.legal_moves(record.state, seat), rng)
        batch, after = service.decide(record, Actor(seat), command)
        if not service.append_batch(record, batch, after):
            raise RuntimeError("nobody else plays this game")
        record = after
        if mid_game is None and record.version > 40:
            mid_game = service.entries_after(record.game_id, 0, limit=100_000)
    return record.game_id, mid_game, service.entries_after(record.game_id, 0, limit=100_000)


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_R3_replay_of_stored_game_verifies_and_R2_live_one_is_refused(redis_client, game):
    game_id, mid_game, entries = _play_stored_game(redis_client, game, seed=3)
    with pytest.raises(GameNotFinished):
        build_replay(game_id, mid_game)
    replay = build_replay(game_id, entries)
    report = verify(replay)
    assert report.ok, report.line()
    assert replay["header"]["game_id"] == game_id
    assert len(replay["entries"]) == len(entries)


def test_R3_raw_json_entries_build_the_same_replay():
    entries = finished_entries("keltis-dice")
    raw = [json.dumps(entry, separators=(",", ":")) for entry in entries]
    assert build_replay("g", raw) == build_replay("g", entries)
