"""Rated games between the same two accounts, pure: how much the k-th game of one pair counts,
which win is quick, and which pairs gained suspiciously.

A farmer plays rated games between two accounts of their own, one resigning at once, to lift
the other's rating. As lichess does, repeated games between one pair in one day count less
and, past a cap, not at all:

- the k-th rated game of one unordered pair of accounts in one game type, counting the
  pair's rated results that finished in the `WINDOW_MS` (24 h, rolling) before it, moves
  each rating by `pair_weight(k)` = 1/k of openskill's update (mu and sigma alike:
  `blend`); the 11th and later (`PAIR_DAILY_LIMIT`) move nothing;
- a new rated game of a pair that already began `PAIR_DAILY_LIMIT` rated games in the
  last 24 h is created unrated (application.ladder.rated_pairs).

Both numbers are fixed here, not settings: the ladder's fold reads k from each entry and
the weight from k, and a rebuild must reproduce the ratings bit for bit.

A win is quick when its loser forfeited (resigned, timed out) or the game's log held fewer
than `QUICK_ENTRIES` entries; `SUSPICIOUS_WINS` quick wins of one account over one opponent
in 24 h are a suspicious gain, reported to the operator (`keltis ratings suspicious`, the
`keltis_suspicious_gains_total` counter).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

WINDOW_MS = 24 * 3600 * 1000
PAIR_DAILY_LIMIT = 10
QUICK_ENTRIES = 20  # two greedy bots' whole game: 130-160 log entries (card), 70-120 (dice)
SUSPICIOUS_WINS = 3


def pair_weight(k: int) -> float:
    """How much the k-th rated game of a pair in the window moves its ratings: 1/k up to
    the daily limit, 0 past it."""
    if k < 1:
        raise ValueError(f"a pair's game number starts at 1, not {k}")
    return 1.0 / k if k <= PAIR_DAILY_LIMIT else 0.0


def blend(before: float, after: float, weight: float) -> float:
    """A value moved `weight` of the way from `before` to `after` (weight 1: `after`)."""
    return after if weight == 1.0 else before + weight * (after - before)


def pair_of(participants: Iterable[str]) -> tuple[str, str] | None:
    """The unordered pair (sorted) of a game's participants when it is exactly two accounts
    (ladder.entries.participant_id); None otherwise (a bot, three or more, one)."""
    found = sorted(set(participants))
    if len(found) != 2 or not all(p.startswith("account:") for p in found):
        return None
    return found[0], found[1]


@dataclass(frozen=True, slots=True)
class PairResult:
    """One rated result of a pair: the game (or match) id, when it finished (ms), the
    winner's and loser's participant ids (None both for a shared win) and whether the win
    was quick."""

    game_id: str
    at: int
    winner: str | None
    loser: str | None
    quick: bool

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> PairResult:
        return cls(data["game_id"], int(data["at"]), data["winner"], data["loser"], data["quick"])


def game_number(result: PairResult, earlier: Iterable[PairResult]) -> int:
    """k of `result` among the pair's results: 1 + those that finished in the window before
    it (ties by game id), itself left out, so reading it again gives the same k."""
    place = (result.at, result.game_id)
    return 1 + sum(
        1
        for other in earlier
        if other.game_id != result.game_id
        and result.at - WINDOW_MS < other.at
        and (other.at, other.game_id) < place
    )


def quick_wins(results: Iterable[PairResult], winner: str, since: int) -> int:
    """Quick wins of `winner` among `results` finished after `since` (ms)."""
    return sum(1 for r in results if r.winner == winner and r.quick and r.at > since)


@dataclass(frozen=True, slots=True)
class SuspiciousGain:
    """An account that won quickly over one opponent at least SUSPICIOUS_WINS times in the
    window: its game type, winner and loser (participant ids), quick wins, the pair's rated
    games, the games the winner won, and the ordinal the winner gained in those games."""

    game: str
    winner: str
    loser: str
    quick_wins: int
    games: int
    game_ids: tuple[str, ...]
    gained: float = 0.0


def suspicious_gains(
    game: str, results: Iterable[PairResult], since: int, min_wins: int = SUSPICIOUS_WINS
) -> list[SuspiciousGain]:
    """The suspicious gains of one pair's results finished after `since` (ms): per winner
    with at least `min_wins` quick wins over the other (ordinal gained left 0: the ladder's
    history tells it)."""
    recent = [r for r in results if r.at > since]
    found = []
    for winner in sorted({r.winner for r in recent if r.winner is not None}):
        wins = quick_wins(recent, winner, since)
        if wins < min_wins:
            continue
        won = [r for r in recent if r.winner == winner]
        found.append(
            SuspiciousGain(
                game,
                winner,
                won[0].loser or "",
                wins,
                len(recent),
                tuple(r.game_id for r in sorted(won, key=lambda r: (r.at, r.game_id))),
            )
        )
    return found
