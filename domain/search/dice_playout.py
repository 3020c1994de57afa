"""A fast playout of keltis-dice for the search: the rules of a turn (T1-T6, F1, F5, F6) on plain
lists, the greedy bot's policy (`domain.dice.bots.greedy_bot`, the same choices) on them,
and dice read from a `DiceTable` drawn once per iteration.

Every candidate of an iteration reads the same table: the n-th turn after the searched
move rolls the same dice whatever that move was, and a reroll at the searched move redraws
the same faces (common random numbers). No events, views or HMAC draws: a playout is many
times cheaper than one through `decide` and `evolve`.
"""

from __future__ import annotations

from functools import cache
from math import comb

from domain.dice.board import Board
from domain.dice.bots import CLOVER_WORTH, END_WORTH, KOBOLD_WORTH, NEW_PATH_WORTH
from domain.dice.commands import (
    CLOVER_BASE,
    CLOVERS,
    KEEP,
    MOVE_BASE,
    MOVES,
    PASS,
    REROLL_BASE,
    REROLL_CHOICES,
    REROLLS,
)
from domain.dice.decide import GOAL_THRESHOLD
from domain.dice.scoring import tile_points
from domain.dice.state import CLOVER, DICE, FINISHED, MARKERS, MOVE, ROLL, STONE, DiceState
from domain.endless import counts_after_turn, service_ending

PATHS = 5
NO_BONUS, CLOVER_BONUS, STONE_BONUS, KOBOLD_BONUS = 0, 1, 2, 3
_BONUS_CODE = {None: NO_BONUS, "clover": CLOVER_BONUS, "stone": STONE_BONUS, "kobold": KOBOLD_BONUS}
TILE_POINTS = tuple(tile_points(t) for t in range(64))
TILE_GAIN = tuple(TILE_POINTS[t + 1] - TILE_POINTS[t] for t in range(63))
_SIX_POW_TEN = 6**10
REROLL_INDEX = {indexes: i for i, indexes in enumerate(REROLL_CHOICES)}


def _reroll_odds(dice: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """For `dice` rerolled dice: (odds of h new dice of a given colour, for h = 0..dice;
    odds that k kept stones plus the new ones make two or more, for k = 0..5)."""
    face = 1 / 6
    hits = tuple(comb(dice, h) * face**h * (1 - face) ** (dice - h) for h in range(dice + 1))
    none = (1 - face) ** dice
    one = dice * face * (1 - face) ** (dice - 1)
    return hits, (1 - none - one, 1 - none, 1.0, 1.0, 1.0, 1.0)


_REROLL_ODDS = tuple(_reroll_odds(dice) for dice in range(DICE + 1))


@cache
def _bonus_codes(board: Board) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(_BONUS_CODE[b] for b in path) for path in board.bonus)


class DiceTable:
    """The dice of the turns of one iteration, drawn from `rng` as they are first needed:
    row n holds 10 faces, the roll of the n-th turn (5) and the faces a reroll takes (5)."""

    __slots__ = ("rng", "rows")

    def __init__(self, rng):
        self.rng = rng
        self.rows: list[list[int]] = []

    def row(self, turn: int) -> list[int]:
        rows = self.rows
        while len(rows) <= turn:
            value = self.rng.getrandbits(64) % _SIX_POW_TEN  # bias below 2**-35
            faces = []
            for _ in range(2 * DICE):
                value, face = divmod(value, 6)
                faces.append(face)
            rows.append(faces)
        return rows[turn]


class Sim:
    """A mutable keltis-dice position: `pos[seat][path]` fields, `dice` five face indexes,
    `turn` the row of the dice table the current turn rolled."""

    __slots__ = (
        "board",
        "bonus",
        "dice",
        "idle",
        "moved",
        "players",
        "pos",
        "seat",
        "stage",
        "supply",
        "table",
        "tiles",
        "turn",
        "turns",
    )

    @classmethod
    def of(cls, state: DiceState, table: DiceTable) -> Sim:
        sim = object.__new__(cls)
        sim.board = state.board
        sim.bonus = _bonus_codes(state.board)
        sim.dice = list(state.dice)
        sim.players = state.players
        sim.pos = [list(row) for row in state.positions]
        sim.seat = state.to_move
        sim.stage = state.step
        sim.supply = state.supply
        sim.table = table
        sim.tiles = list(state.tiles)
        sim.turn = 0
        sim.turns = state.turns
        sim.idle = state.idle_run
        sim.moved = state.progressed
        return sim

    def copy(self) -> Sim:
        sim = object.__new__(Sim)
        sim.board = self.board
        sim.bonus = self.bonus
        sim.dice = self.dice[:]
        sim.players = self.players
        sim.pos = [row[:] for row in self.pos]
        sim.seat = self.seat
        sim.stage = self.stage
        sim.supply = self.supply
        sim.table = self.table
        sim.tiles = self.tiles[:]
        sim.turn = self.turn
        sim.turns = self.turns
        sim.idle = self.idle
        sim.moved = self.moved
        return sim

    def score(self, seat: int) -> int:
        """F2-F3: the seat's total now."""
        values = self.board.values
        row = self.pos[seat]
        total = TILE_POINTS[self.tiles[seat]]
        for path in range(PATHS):
            total += values[path][row[path]]
        return total

    def goal_markers(self) -> int:
        goal = self.board.goal_from
        return sum(1 for row in self.pos for field in row if field >= goal)

    # ------------------------------------------------------------ the rules of a turn

    def reroll(self, indexes) -> None:
        """T1-T2: redraw the dice at `indexes` from the table, then the dice are final."""
        fresh = self.table.row(self.turn)
        dice = self.dice
        for n, index in enumerate(indexes):
            dice[index] = fresh[DICE + n]
        self.keep()

    def keep(self) -> None:
        """T2: two stones take a tile; the seat moves next."""
        if self.supply > 0 and self.dice.count(STONE) >= 2:
            self.tiles[self.seat] += 1
            self.supply -= 1
        self.stage = MOVE

    def next_turn(self, seat: int) -> None:
        """T1: `seat` rolls the next row of the table; F5, F6 may end the game first."""
        self.turns, self.idle = counts_after_turn(self.turns, self.idle, self.moved)
        self.moved = False
        if service_ending(self.turns, self.idle) is not None:
            self.stage = FINISHED
            return
        self.turn += 1
        self.seat = seat
        self.dice = self.table.row(self.turn)[:DICE]
        self.stage = ROLL

    def pass_turn(self) -> None:
        self.next_turn((self.seat + 1) % self.players)

    def advance(self, path: int, steps: int) -> None:
        """T3-T6 and F1: the seat's marker on `path` moves `steps` fields (a legal move)."""
        board = self.board
        seat = self.seat
        row = self.pos[seat]
        field = row[path]
        target = min(9, field + steps)
        row[path] = target
        self.moved = True
        goal = board.goal_from
        if field < goal <= target and (
            self.goal_markers() >= GOAL_THRESHOLD[self.players]
            or sum(1 for f in row if f >= goal) == MARKERS
        ):
            self.stage = FINISHED
            return
        bonus = self.bonus[path][target]
        if bonus == STONE_BONUS:
            if self.supply > 0:
                self.tiles[seat] += 1
                self.supply -= 1
        elif bonus == CLOVER_BONUS:
            if self._clover_target(row):
                self.stage = CLOVER
                return
        elif bonus == KOBOLD_BONUS:
            self.next_turn(seat)
            return
        self.pass_turn()

    def _clover_target(self, row: list[int]) -> bool:
        may_enter = row.count(0) > PATHS - MARKERS
        forbidden = self.board.forbidden
        for path, field in enumerate(row):
            if field != 9 and (field or may_enter) and not forbidden[path][field + 1]:
                return True
        return False

    def play(self, command) -> None:
        """Play one of the commands of `domain.dice.commands` (legal for the seat to move)."""
        code = command.code
        if code == KEEP.code:
            self.keep()
        elif code < MOVE_BASE:
            self.reroll(REROLL_CHOICES[code - REROLL_BASE])
        elif code < CLOVER_BASE:
            self.advance(code - MOVE_BASE, self.dice.count(code - MOVE_BASE))
        elif code < PASS.code:
            self.advance(code - CLOVER_BASE, 1)
        else:
            self.pass_turn()

    # ------------------------------------------------------------ the greedy policy

    def greedy_move(self):
        """The greedy bot's command for the seat to move (what `greedy_bot` plays)."""
        values = _Values(self)
        stage = self.stage
        if stage == ROLL:
            choice = values.roll_choice(self.dice)
            return KEEP if choice is None else REROLLS[REROLL_INDEX[tuple(choice)]]
        best, best_value = PASS, 0.0
        clover = stage == CLOVER
        dice = self.dice
        for path in range(PATHS):
            steps = 1 if clover else dice.count(path)
            if not steps:
                continue
            value = values.value(path, steps)
            if value is not None and value > best_value:
                best, best_value = (CLOVERS if clover else MOVES)[path], value
        return best


class _Values:
    """The greedy bot's worth of the moves of the seat to move (`bots._move_value`)."""

    __slots__ = ("best_other", "goal", "goal_total", "mine", "placed", "rest", "row", "score")
    __slots__ += ("sim", "threshold", "tile")

    def __init__(self, sim: Sim):
        seat = sim.seat
        row = sim.pos[seat]
        goal = sim.board.goal_from
        self.sim = sim
        self.row = row
        self.goal = goal
        self.goal_total = sim.goal_markers()
        self.threshold = GOAL_THRESHOLD[sim.players]
        self.mine = sum(1 for f in row if f >= goal)
        self.placed = PATHS - row.count(0)
        self.rest = 1.0 - self.goal_total / self.threshold
        self.score = sim.score(seat)
        self.best_other = max(sim.score(s) for s in range(sim.players) if s != seat)
        self.tile = float(TILE_GAIN[sim.tiles[seat]]) if sim.supply > 0 else 0.0

    def value(self, path: int, steps: int) -> float | None:
        """Points a move of `steps` fields on `path` is worth (None: illegal)."""
        field = self.row[path]
        if field == 9 or (field == 0 and self.placed >= MARKERS):
            return None
        target = field + steps
        if target > 9:
            target = 9
        board = self.sim.board
        if board.forbidden[path][target]:
            return None
        values = board.values[path]
        gain = float(values[target] - values[field])
        if field < self.goal <= target and (
            self.goal_total + 1 >= self.threshold or self.mine + 1 == MARKERS
        ):
            mine_final = self.score + values[target] - values[field]
            return END_WORTH if mine_final > self.best_other else -END_WORTH
        if field == 0:
            gain += NEW_PATH_WORTH[self.placed] * self.rest
        else:
            gain += 1.0 * self.rest if target < 9 else 0.0
        bonus = self.sim.bonus[path][target]
        if bonus == STONE_BONUS:
            gain += self.tile
        elif bonus == CLOVER_BONUS:
            gain += CLOVER_WORTH
        elif bonus == KOBOLD_BONUS:
            gain += KOBOLD_WORTH
        return gain

    def roll_choice(self, dice: list[int]) -> list[int] | None:
        """The dice indexes greedy rerolls, or None to keep (`bots._roll_choice`)."""
        tile = self.tile
        tables = []
        for path in range(PATHS):
            row = [0.0] * 6
            for steps in range(1, 6):
                value = self.value(path, steps)
                if value is not None and value > 0.0:
                    row[steps] = value
            tables.append(row)
        stones_now = dice.count(STONE)
        best_value = max(tables[p][dice.count(p)] for p in range(PATHS))
        best_value += tile if stones_now >= 2 else 0.0
        best_indexes = None
        for path in range(PATHS):
            hits_now = dice.count(path)
            table = tables[path]
            for keep_stones in (True, False):
                kept_stones = stones_now if keep_stones else 0
                rerolled = DICE - hits_now - kept_stones
                if not rerolled:
                    continue
                hit_odds, tile_odds = _REROLL_ODDS[rerolled]
                expected = tile * tile_odds[kept_stones]
                for hits, odds in enumerate(hit_odds):
                    expected += odds * table[hits_now + hits]
                if expected > best_value + 1e-9:
                    best_value = expected
                    best_indexes = [
                        i
                        for i, face in enumerate(dice)
                        if face != path and not (keep_stones and face == STONE)
                    ]
        return best_indexes
