"""Long games of people, played in process: live ones for the snapshot tests and the
cold-read benchmark (bench.cold), the longest finished one for bench.replay_reads."""

from __future__ import annotations

import random

from api.games import presenters
from application.games.service import GameService
from devtools.picks import lasting_pick
from domain.endless import IDLE_TURNS
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


def longest_card_game(games: GameService, players: int = 2) -> GameRecord:
    """A finished keltis-card game of `players` people as long as the service rules allow:
    every seat discards and takes a card back from a discard pile (an idle turn) until one
    more idle turn would end the game by E4, then draws from the deck once; E5 ends it at
    its turn limit (the deck, drawn from so rarely, lasts)."""
    names = [{"name": f"p{seat}"} for seat in range(players)]
    record, tokens, _ = games.create("keltis-card", names, {})
    idle = 0
    while not record.finished:
        moves = presenters.legal_moves(record, record.to_move)
        draws = [m for m in moves if m["action"] == "draw"]
        if not draws:
            move = next((m for m in moves if m["action"] == "discard"), moves[0])
        else:
            piles = [m for m in draws if m["source"] != "deck"]
            take_back = piles and idle < IDLE_TURNS - 1
            move = piles[0] if take_back else next(m for m in draws if m["source"] == "deck")
            idle = idle + 1 if take_back else 0
        seat = record.to_move
        record = games.play(record.game_id, tokens[seat], move, lambda a, _b, _s: a).body
    return record
