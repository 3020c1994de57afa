"""Write domain/search/dice_values.json: what a keltis-dice position is worth at the end of
a game of the greedy bot for every seat (the evaluation of the `mcts` bot's rollouts).

For each player count and board it plays GAMES games of greedy on the search's fast playout
(seeded: the file is reproducible) and records, at the start of every turn, each seat's
markers, unplaced paths and tiles against what they scored at the end, by how many markers
stood in goal zones then (the clock of the game, F1):

- "marker"[goal][field]: mean final points of a marker on `field` (1-9);
- "unplaced"[goal][placed]: mean final points of a path without a marker, with `placed`
  markers on the board (0-4);
- "tiles"[goal][tiles]: mean final tile points (F3) with `tiles` tiles (0-9, 9 = 9 or more).

Each mean is shrunk towards the points the item holds now by PRIOR games of weight, so rare
cells stay near their face value. Run: `.venv/bin/python scripts/dice_values.py [GAMES]`.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.dice.board import BOARD_NAMES, load_board  # noqa: E402
from domain.dice.decide import GOAL_THRESHOLD  # noqa: E402
from domain.dice.state import DICE, FINISHED, ROLL, initial_state  # noqa: E402
from domain.search.dice_playout import TILE_POINTS, DiceTable, Sim  # noqa: E402

GAMES = 3000
PRIOR = 10.0
TILES = 10
OUT = Path(__file__).resolve().parent.parent / "domain" / "search" / "dice_values.json"


def snapshots(board, players: int, seed: int):
    """(the start of each turn: goal markers, positions, tiles; the final position)."""
    state = initial_state(players, board)
    table = DiceTable(random.Random(seed))
    state.dice = tuple(table.row(0)[:DICE])
    sim = Sim.of(state, table)
    seen, last = [], -1
    while sim.stage != FINISHED:
        if sim.stage == ROLL and sim.turn != last:
            last = sim.turn
            seen.append((sim.goal_markers(), [row[:] for row in sim.pos], sim.tiles[:]))
        sim.play(sim.greedy_move())
    return seen, sim


def tables(board, players: int, games: int) -> dict:
    goals = GOAL_THRESHOLD[players]
    shape = {"marker": 10, "unplaced": 5, "tiles": TILES}
    sums = {name: [[0.0] * size for _ in range(goals)] for name, size in shape.items()}
    counts = {name: [[0] * size for _ in range(goals)] for name, size in shape.items()}

    def add(name: str, goal: int, index: int, value: float) -> None:
        sums[name][goal][index] += value
        counts[name][goal][index] += 1

    values = board.values
    for game in range(games):
        seen, end = snapshots(board, players, game)
        for goal, pos, tiles in seen:
            for seat in range(players):
                row, final = pos[seat], end.pos[seat]
                placed = len(row) - row.count(0)
                for path, field in enumerate(row):
                    points = values[path][final[path]]
                    if field:
                        add("marker", goal, field, points)
                    else:
                        add("unplaced", goal, placed, points)
                add("tiles", goal, min(tiles[seat], TILES - 1), TILE_POINTS[end.tiles[seat]])
    face = {
        "marker": lambda i: sum(values[p][i] for p in range(5)) / 5,
        "unplaced": lambda i: 0.0,
        "tiles": lambda i: float(TILE_POINTS[i]),
    }
    return {
        name: [
            [
                round((sums[name][g][i] + PRIOR * face[name](i)) / (counts[name][g][i] + PRIOR), 3)
                for i in range(size)
            ]
            for g in range(goals)
        ]
        for name, size in shape.items()
    }


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    document = {
        str(players): {name: tables(load_board(name), players, games) for name in BOARD_NAMES}
        for players in sorted(GOAL_THRESHOLD)
    }
    OUT.write_text(json.dumps(document, separators=(",", ":")) + "\n", "utf-8")
    print(f"wrote {OUT} ({games} games per player count and board)")


if __name__ == "__main__":
    main()
