"""Long live games of people, played in process, for the snapshot tests and the cold-read
benchmark (bench.cold)."""

from __future__ import annotations

import random

from api import presenters
from application.games import GameService
from devtools.picks import lasting_pick
from gamelog.record import GameRecord


def live_card_game(
    games: GameService, version: int, rng: random.Random
) -> tuple[GameRecord, dict[int, str]]:
    """A live 2-player keltis-card game of two people played up to `version` (or just past
    it) with `lasting_pick`, and its seats' tokens; a new game whenever one ends first."""
    while True:
        record, tokens, _ = games.create("keltis-card", [{"name": "a"}, {"name": "b"}], {})
        while record.version < version and not record.finished:
            seat = record.to_move
            move = lasting_pick(presenters.legal_moves(record, seat), rng)
            record = games.play(record.game_id, tokens[seat], move, lambda a, _b, _s: a).body
        if not record.finished:
            return record, tokens
