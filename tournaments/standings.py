"""Standings of a tournament from its games' results (pure; recomputable at any time).

Per bot entry: games, wins (sole winner), shared wins (one of several tied winners), win
rate, mean score with a normal-approximation 95% interval (mean +- 1.96 * s / sqrt(n), s the
sample standard deviation; a single game gives a zero-width interval), games per seat, and
an openskill Plackett-Luce rating (mu, sigma, ordinal = mu - 3 sigma) updated game by game
in game-index order, so the rating does not depend on the order the games finished in.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z_95 = 1.96
ROUND = 4


@dataclass(frozen=True)
class GameOutcome:
    """One finished game of a tournament: which entry sat where, its deal, and its result
    (per seat: score, turns timed out, whether the seat forfeited)."""

    index: int
    game_id: str
    entries: tuple[int, ...]  # entry index per seat
    scores: tuple[float, ...]  # per seat
    winners: tuple[int, ...]  # seats
    deal: int = -1  # the deal (game seed) played; -1: the game's own (its index)
    timeouts: tuple[int, ...] = ()  # per seat (empty: none)
    forfeited: tuple[int, ...] = ()  # seats

    @property
    def deal_or_index(self) -> int:
        return self.index if self.deal < 0 else self.deal

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "game_id": self.game_id,
            "entries": list(self.entries),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "deal": self.deal_or_index,
            "timeouts": list(self.timeouts),
            "forfeited": list(self.forfeited),
        }

    @classmethod
    def from_dict(cls, data: dict) -> GameOutcome:
        return cls(
            index=int(data["index"]),
            game_id=data["game_id"],
            entries=tuple(data["entries"]),
            scores=tuple(data["scores"]),
            winners=tuple(data["winners"]),
            deal=int(data.get("deal", data["index"])),
            timeouts=tuple(data.get("timeouts", ())),
            forfeited=tuple(data.get("forfeited", ())),
        )

    @classmethod
    def from_result(
        cls,
        index: int,
        game_id: str,
        entries: Sequence[int],
        result: dict,
        deal: int = -1,
        timeouts: Sequence[int] = (),
    ):
        """From a game's result (`rules.result(state)`, or a record's `result`, which
        names its `forfeited` seats)."""
        return cls(
            index,
            game_id,
            tuple(entries),
            tuple(result["scores"]),
            tuple(result["winners"]),
            deal,
            tuple(timeouts),
            tuple(result.get("forfeited", ())),
        )


def entry_labels(bots: Sequence[str]) -> list[str]:
    """Labels of the entries, numbered when a bot name repeats (greedy#1, greedy#2)."""
    counts = Counter(bots)
    seen: Counter = Counter()
    labels = []
    for name in bots:
        seen[name] += 1
        labels.append(f"{name}#{seen[name]}" if counts[name] > 1 else name)
    return labels


def mean_ci95(scores: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of the 95% interval of the mean; zeros for no scores."""
    n = len(scores)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(scores) / n
    if n == 1:
        return mean, mean, mean
    variance = sum((s - mean) ** 2 for s in scores) / (n - 1)
    half = Z_95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def ratings(entries: int, outcomes: Iterable[GameOutcome]) -> list[dict]:
    """openskill Plackett-Luce rating of each entry after every game, in index order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating(name=str(entry)) for entry in range(entries)]
    for outcome in sorted(outcomes, key=lambda o: o.index):
        teams = [[current[entry]] for entry in outcome.entries]
        rated = model.rate(teams, scores=list(outcome.scores))
        for entry, team in zip(outcome.entries, rated, strict=True):
            current[entry] = team[0]
    return [
        {
            "mu": round(r.mu, ROUND),
            "sigma": round(r.sigma, ROUND),
            "ordinal": round(r.ordinal(), ROUND),
        }
        for r in current
    ]


def scores_by_entry(entries: int, outcomes: Iterable[GameOutcome]) -> list[list[float]]:
    """Every score of each entry, in game-index order."""
    scores: list[list[float]] = [[] for _ in range(entries)]
    for outcome in sorted(outcomes, key=lambda o: o.index):
        for seat, entry in enumerate(outcome.entries):
            scores[entry].append(outcome.scores[seat])
    return scores


def standings(bots: Sequence[str], seats: int, outcomes: Sequence[GameOutcome]) -> list[dict]:
    """One row per entry (in entry order)."""
    labels = entry_labels(bots)
    entries = len(bots)
    wins = [0] * entries
    shared = [0] * entries
    per_seat = [[0] * seats for _ in range(entries)]
    for outcome in outcomes:
        sole = len(outcome.winners) == 1
        for seat, entry in enumerate(outcome.entries):
            per_seat[entry][seat] += 1
            if seat in outcome.winners:
                if sole:
                    wins[entry] += 1
                else:
                    shared[entry] += 1
    scores = scores_by_entry(entries, outcomes)
    rated = ratings(entries, outcomes)
    rows = []
    for entry in range(entries):
        games = len(scores[entry])
        mean, low, high = mean_ci95(scores[entry])
        rows.append(
            {
                "entry": entry,
                "bot": labels[entry],
                "games": games,
                "wins": wins[entry],
                "shared_wins": shared[entry],
                "win_rate": round(wins[entry] / games, ROUND) if games else 0.0,
                "mean_score": round(mean, ROUND),
                "score_ci95": [round(low, ROUND), round(high, ROUND)],
                "seat_games": per_seat[entry],
                "rating": rated[entry],
            }
        )
    return rows
