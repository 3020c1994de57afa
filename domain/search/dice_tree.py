"""keltis-dice for the tree search (`domain.search.ismcts.Game`) on the fast playout of
`domain.search.dice_playout`: a determinization is the view's position with a fresh table
of future dice; the prior ranks the greedy bot's choice first; rollouts play greedy."""

from __future__ import annotations

import random
from math import exp

from domain.dice.commands import (
    CLOVERS,
    KEEP,
    MOVES,
    PASS,
    REROLL_BASE,
    REROLL_CHOICES,
    REROLLS,
    parse,
)
from domain.dice.state import CLOVER, FINISHED, MARKERS, ROLL
from domain.search.dice import state_of
from domain.search.dice_playout import PATHS, DiceTable, Sim, _Values

ROLLOUT_TURNS = 2  # each seat's turns played out before the evaluation
MARGIN_SCALE = 5.0  # points of lead worth about 0.73 of a win


def roll_moves(dice: list[int], first) -> list:
    """KEEP and one reroll per distinct multiset of rerolled faces, `first` ahead, then the
    rerolls of fewest dice first (equal faces are interchangeable dice)."""
    seen = {}
    for indexes, move in zip(REROLL_CHOICES, REROLLS, strict=True):
        faces = tuple(sorted(dice[i] for i in indexes))
        seen.setdefault(faces, move)
    moves = [KEEP, *sorted(seen.values(), key=lambda m: len(REROLL_CHOICES[m.code - REROLL_BASE]))]
    if first is not KEEP:
        first_faces = tuple(sorted(dice[i] for i in REROLL_CHOICES[first.code - REROLL_BASE]))
        first = seen[first_faces]
    return [first, *[m for m in moves if m is not first]]


class DiceTree:
    """The `Game` of keltis-dice for `domain.search.ismcts`."""

    def dealer(self, view: dict):
        state = state_of(view)

        def deal(rng):
            table = DiceTable(random.Random(rng.getrandbits(64)))
            return Sim.of(state, table), table

        return deal

    def determinize(self, view: dict, rng):
        return self.dealer(view)(rng)

    def to_move(self, sim: Sim) -> int | None:
        return None if sim.stage == FINISHED else sim.seat

    def ranked(self, sim: Sim, rng) -> list:
        if sim.stage == ROLL:
            return roll_moves(sim.dice, sim.greedy_move())
        values = _Values(sim)
        clover = sim.stage == CLOVER
        row = sim.pos[sim.seat]
        may_enter = row.count(0) > PATHS - MARKERS
        scored = [(0.0, PASS)]
        for path in range(PATHS):
            steps = 1 if clover else sim.dice.count(path)
            if not steps or row[path] == 9 or (row[path] == 0 and not may_enter):
                continue
            value = values.value(path, steps)
            if value is not None:
                scored.append((value, (CLOVERS if clover else MOVES)[path]))
        scored.sort(key=lambda pair: -pair[0])
        return [move for _, move in scored]

    def policy(self, sim: Sim, rng):
        return sim.greedy_move()

    def fork(self, sim: Sim) -> Sim:
        return sim.copy()

    def step(self, sim: Sim, move, table) -> Sim:
        sim.play(move)
        return sim

    def rollout(self, sim: Sim, table, rng, seat: int) -> tuple[float, float]:
        last = sim.turn + ROLLOUT_TURNS * sim.players
        while sim.stage != FINISHED and sim.turn <= last:
            sim.play(sim.greedy_move())
        scores = [sim.score(s) for s in range(sim.players)]
        margin = scores[seat] - max(v for s, v in enumerate(scores) if s != seat)
        return 1.0 / (1.0 + exp(-margin / MARGIN_SCALE)), float(margin)

    def code(self, move) -> int:
        return parse(move).code


GAME = DiceTree()
