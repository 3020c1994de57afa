"""Standings of a tournament from its games' results (pure; recomputable at any time).

Per entry: games, wins (sole winner), shared wins (one of several tied winners), win rate,
mean score with its 95% interval, turns timed out, games forfeited, games per seat, and an
openskill Plackett-Luce rating (mu, sigma, ordinal = mu - 3 sigma) updated game by game in
game-index order from each game's ranks (forfeited seats last: the ladder's ranking), so the
rating does not depend on the order the games finished in.

A game ended early by forfeits (one seat left in play) counts as a game, a win for the seat
left and a forfeit for the others, but has no scores: the mean score and the pairs are over
scored games. Void games (cancelled, expired) count nowhere here (`results`).

Wins add up: every game has one sole winner, or a shared win (tied winners; counted once
per game here, once per tied entry in `shared_wins`), or no winner at all (every seat
forfeited), so sole wins + games with a shared win + games without a winner = games
(`win_totals`).

Every 95% interval here is a Student t-interval of a mean: mean +- t(0.975, n-1) * s /
sqrt(n), s the sample standard deviation, t from a small table (`t_975`, exact to three
decimals up to 30 degrees of freedom, then the tabulated value at or below n-1, slightly
wide; 1.96 from 1000 on). An entry with a single game gets a zero-width interval.

Pairs answer "is A better than B?": for every two entries A, B, the mean of the score
difference A - B with its 95% interval and `n`, the number of units it is taken over:
- `duplicate`: per *deal*: A's mean score over the deal's games minus B's, over every deal
  whose games are all finished and played by both at one table (each held every seat's
  cards once, so the cards' luck cancels); the interval is over deals.
- other formats: per *game* in which both sat, A's score minus B's; the interval is over
  those games.
A pair with fewer than two units has no interval (`diff_ci95` null); `better` names the
entry whose side the whole interval is on, else null.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain import ranking

ROUND = 4
DEAL = "deal"
GAME = "game"
# Two-sided 95% Student t quantiles t(0.975, df), by degrees of freedom.
T_975 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
    9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120,
    17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064,
    25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 50: 2.009,
    60: 2.000, 80: 1.990, 100: 1.984, 120: 1.980, 200: 1.972, 500: 1.965, 1000: 1.962,
}  # fmt: skip
Z_975 = 1.96  # the limit for many degrees of freedom


@dataclass(frozen=True)
class GameOutcome:
    """One game of a tournament that is over: which entry sat where, its deal, and its
    result per seat (score, rank, turns timed out, whether the seat forfeited), as
    gamelog.outcome reads it for the ladder too. A game ended early by forfeits has no
    scores (None) and ranks its forfeited seats last; a `void` game (cancelled, expired)
    counts in no standings."""

    index: int
    game_id: str
    entries: tuple[int, ...]  # entry index per seat
    scores: tuple[float | None, ...]  # per seat; None: the game ended before its scoring
    winners: tuple[int, ...]  # seats
    deal: int = -1  # the deal (game seed) played; -1: the game's own (its index)
    timeouts: tuple[int, ...] = ()  # per seat (empty: none)
    forfeited: tuple[int, ...] = ()  # seats
    ranks: tuple[int, ...] = ()  # per seat, 1 is best (empty: from scores and forfeits)
    ended: str | None = None  # why it ended before its rules' end (forfeit, cancelled)
    void: str | None = None  # cancelled, expired: no result counts

    @property
    def deal_or_index(self) -> int:
        return self.index if self.deal < 0 else self.deal

    @property
    def placed(self) -> tuple[int, ...]:
        """Each seat's rank (domain.ranking, as the ladder ranks it)."""
        if self.ranks:
            return self.ranks
        lost = [seat in self.forfeited for seat in range(len(self.entries))]
        return tuple(ranking.ranks(self.scores, lost))

    @property
    def scored(self) -> bool:
        """Whether every seat has a score (not a game ended early)."""
        return all(score is not None for score in self.scores)

    def to_dict(self) -> dict:
        data = {
            "index": self.index,
            "game_id": self.game_id,
            "entries": list(self.entries),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "deal": self.deal_or_index,
            "timeouts": list(self.timeouts),
            "forfeited": list(self.forfeited),
            "ranks": list(self.placed),
        }
        if self.ended:
            data["ended"] = self.ended
        if self.void:
            data["void"] = self.void
        return data

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
            ranks=tuple(data.get("ranks", ())),
            ended=data.get("ended"),
            void=data.get("void"),
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
        """From a scored result (`rules.result(state)`, as a local tournament plays it)."""
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


def results(outcomes: Iterable[GameOutcome]) -> list[GameOutcome]:
    """The outcomes that count as results (not void: cancelled or expired games)."""
    return [outcome for outcome in outcomes if not outcome.void]


def entry_labels(bots: Sequence[str]) -> list[str]:
    """Labels of the entries, numbered when a bot name repeats (greedy#1, greedy#2)."""
    counts = Counter(bots)
    seen: Counter = Counter()
    labels = []
    for name in bots:
        seen[name] += 1
        labels.append(f"{name}#{seen[name]}" if counts[name] > 1 else name)
    return labels


def t_975(df: int) -> float:
    """t(0.975, df): the tabulated quantile at the largest tabulated df not above `df`."""
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df in T_975:
        return T_975[df]
    if df > max(T_975):
        return Z_975
    return T_975[max(d for d in T_975 if d <= df)]


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the Student t 95% interval of the mean; zeros for no values, a
    zero-width interval for one."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_975(n - 1) * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def ratings(entries: int, outcomes: Iterable[GameOutcome]) -> list[dict]:
    """openskill Plackett-Luce rating of each entry after every game, in index order, from
    each game's ranks (forfeited seats last, as the ladder rates)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating(name=str(entry)) for entry in range(entries)]
    for outcome in sorted(outcomes, key=lambda o: o.index):
        teams = [[current[entry]] for entry in outcome.entries]
        rated = model.rate(teams, ranks=list(outcome.placed))
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
    """Every score of each entry, in game-index order (a game ended early has none)."""
    scores: list[list[float]] = [[] for _ in range(entries)]
    for outcome in sorted(outcomes, key=lambda o: o.index):
        for seat, entry in enumerate(outcome.entries):
            if outcome.scores[seat] is not None:
                scores[entry].append(outcome.scores[seat])
    return scores


def win_totals(outcomes: Iterable[GameOutcome]) -> dict:
    """{"games", "sole", "shared", "none"}: games with a sole winner, with a shared win, and
    without a winner; sole + shared + none == games."""
    totals = {"games": 0, "sole": 0, "shared": 0, "none": 0}
    for outcome in outcomes:
        totals["games"] += 1
        kind = {0: "none", 1: "sole"}.get(len(outcome.winners), "shared")
        totals[kind] += 1
    return totals


def standings(bots: Sequence[str], seats: int, outcomes: Sequence[GameOutcome]) -> list[dict]:
    """One row per entry (in entry order)."""
    labels = entry_labels(bots)
    entries = len(bots)
    wins = [0] * entries
    shared = [0] * entries
    timeouts = [0] * entries
    forfeits = [0] * entries
    games = [0] * entries
    per_seat = [[0] * seats for _ in range(entries)]
    for outcome in outcomes:
        sole = len(outcome.winners) == 1
        for seat, entry in enumerate(outcome.entries):
            games[entry] += 1
            per_seat[entry][seat] += 1
            if outcome.timeouts:
                timeouts[entry] += outcome.timeouts[seat]
            if seat in outcome.forfeited:
                forfeits[entry] += 1
            if seat in outcome.winners:
                if sole:
                    wins[entry] += 1
                else:
                    shared[entry] += 1
    scores = scores_by_entry(entries, outcomes)
    rated = ratings(entries, outcomes)
    rows = []
    for entry in range(entries):
        mean, low, high = mean_ci95(scores[entry])
        rows.append(
            {
                "entry": entry,
                "bot": labels[entry],
                "games": games[entry],
                "wins": wins[entry],
                "shared_wins": shared[entry],
                "win_rate": round(wins[entry] / games[entry], ROUND) if games[entry] else 0.0,
                "mean_score": round(mean, ROUND),
                "score_ci95": [round(low, ROUND), round(high, ROUND)],
                "timeouts": timeouts[entry],
                "forfeits": forfeits[entry],
                "seat_games": per_seat[entry],
                "rating": rated[entry],
            }
        )
    return rows


def pair_differences(
    entries: int, outcomes: Iterable[GameOutcome], deal_size: int
) -> dict[tuple[int, int], list[float]]:
    """Per pair (a, b), a < b: the score differences a - b, one per unit in unit order.

    `deal_size` 1: one unit per game both sat in. Above 1 (duplicate): one unit per deal
    with all its `deal_size` games recorded and both in every one of them, the difference
    of their mean scores over the deal's games.
    """
    by_deal: dict[int, list[GameOutcome]] = {}
    for outcome in sorted(outcomes, key=lambda o: o.index):
        unit = outcome.index if deal_size == 1 else outcome.deal_or_index
        by_deal.setdefault(unit, []).append(outcome)
    differences: dict[tuple[int, int], list[float]] = {
        pair: [] for pair in itertools.combinations(range(entries), 2)
    }
    for unit in sorted(by_deal):
        games = by_deal[unit]
        if len(games) != deal_size or not all(game.scored for game in games):
            continue  # a deal still being played, cut short or unscored: not comparable
        totals: dict[int, list[float]] = {}
        for outcome in games:
            for seat, entry in enumerate(outcome.entries):
                totals.setdefault(entry, []).append(outcome.scores[seat])
        present = sorted(e for e, s in totals.items() if len(s) == deal_size)
        for a, b in itertools.combinations(present, 2):
            differences[(a, b)].append(sum(totals[a]) / deal_size - sum(totals[b]) / deal_size)
    return differences


def pairs(bots: Sequence[str], outcomes: Sequence[GameOutcome], deal_size: int = 1) -> list[dict]:
    """One row per pair of entries (a < b, in entry order): the mean score difference a - b
    per unit (`deal` when `deal_size` > 1, else `game`) with its 95% interval."""
    labels = entry_labels(bots)
    rows = []
    for (a, b), diffs in pair_differences(len(bots), outcomes, deal_size).items():
        mean, low, high = mean_ci95(diffs)
        interval = [round(low, ROUND), round(high, ROUND)] if len(diffs) > 1 else None
        better = None
        if interval is not None and low > 0:
            better = labels[a]
        elif interval is not None and high < 0:
            better = labels[b]
        rows.append(
            {
                "entries": [a, b],
                "bots": [labels[a], labels[b]],
                "unit": DEAL if deal_size > 1 else GAME,
                "n": len(diffs),
                "mean_diff": round(mean, ROUND),
                "diff_ci95": interval,
                "better": better,
            }
        )
    return rows
