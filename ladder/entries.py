"""A ladder entry: the result of one finished rated game, as the ladder's log keeps it.

Per seat: its participant (an account's name as written, or a built-in bot's name, with
`bot`), score (null for a game that ended early), rank (1 is best; tied seats share a rank;
forfeited seats rank after every seat in play), whether it won, whether it forfeited.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


def participant_id(name: str, bot: bool) -> str:
    """The key of a participant: built-in bots and accounts apart (an account may be named
    like a bot), names compared ignoring case."""
    return f"{'bot' if bot else 'account'}:{name.lower()}"


@dataclass(frozen=True, slots=True)
class LadderSeat:
    """One seat of a rated game's result."""

    name: str
    bot: bool
    score: float | None
    rank: int
    winner: bool
    forfeited: bool

    @property
    def participant(self) -> str:
        return participant_id(self.name, self.bot)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "bot": self.bot,
            "score": self.score,
            "rank": self.rank,
            "winner": self.winner,
            "forfeited": self.forfeited,
        }

    @classmethod
    def from_dict(cls, data: dict) -> LadderSeat:
        return cls(
            data["name"],
            bool(data["bot"]),
            data["score"],
            int(data["rank"]),
            bool(data["winner"]),
            bool(data["forfeited"]),
        )


@dataclass(frozen=True, slots=True)
class LadderEntry:
    """One finished rated game: id, game type, when it finished (ms), its seats, and
    `pair_game`: the k of a game between two accounts, its place among the pair's rated
    results of the last 24 h (ladder.pairs; 1 for any other game, and left out of the JSON
    then, so entries written before it read the same)."""

    game_id: str
    game: str
    finished_at: int
    seats: tuple[LadderSeat, ...]
    pair_game: int = 1

    def to_dict(self) -> dict:
        data = {
            "game_id": self.game_id,
            "game": self.game,
            "finished_at": self.finished_at,
            "seats": [seat.to_dict() for seat in self.seats],
        }
        if self.pair_game != 1:
            data["pair_game"] = self.pair_game
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict) -> LadderEntry:
        return cls(
            data["game_id"],
            data["game"],
            int(data["finished_at"]),
            tuple(LadderSeat.from_dict(seat) for seat in data["seats"]),
            int(data.get("pair_game", 1)),
        )

    @classmethod
    def from_json(cls, raw: str | bytes) -> LadderEntry:
        return cls.from_dict(json.loads(raw))
