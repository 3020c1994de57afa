"""Run a tournament in-process (no Redis, no workers): the `keltis tournament` default.

Game k plays exactly `keltis simulate`'s game k of the same seed: the game seed of
`tournaments.seeds.game_seed` and one shared bot random source seeded by `bot_seed`.
(A served tournament adds the server's secret salt to the seed, R1, and its bots draw
from the service's per-version random source: same standings in distribution, other games.)
In `round_robin` and `duplicate` game k plays the deal `spec.plan(k).deal` (its seed is the
deal's), so a duplicate deal's games share their cards. Account entries play on a server
only: an open spec is refused here.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.playout import play_game
from domain.registry import get_rules
from tournaments import seeds
from tournaments.errors import InvalidTournament
from tournaments.spec import TournamentSpec
from tournaments.standings import GameOutcome

LOCAL_ID = "local"


def play_local_game(spec: TournamentSpec, index: int) -> GameOutcome:
    """Game `index` of the tournament, played in this process."""
    rules = get_rules(spec.game)
    planned = spec.plan(index)
    entries = planned.entries
    playout = play_game(
        rules,
        [spec.bots[entry] for entry in entries],
        seeds.game_seed(spec.seed, planned.deal),
        seeds.bot_seed(spec.seed, index),
        options=spec.game_options,
    )
    game_id = seeds.game_id(LOCAL_ID, index)
    return GameOutcome.from_result(index, game_id, entries, playout.result, planned.deal)


def require_local(spec: TournamentSpec) -> None:
    """InvalidTournament when the spec has account entries (they play on a server)."""
    if spec.open:
        raise InvalidTournament(
            f"account entries need --server ({', '.join('@' + a for a in spec.accounts)}): "
            "they play on the service, not in this process"
        )


def run_local(
    spec: TournamentSpec, on_game: Callable[[GameOutcome], None] | None = None
) -> list[GameOutcome]:
    """Every game of the tournament, in index order."""
    require_local(spec)
    outcomes = []
    for index in range(spec.games):
        outcome = play_local_game(spec, index)
        outcomes.append(outcome)
        if on_game is not None:
            on_game(outcome)
    return outcomes
