"""The stored log of a game played in process (no Redis), so tools and tests can make replays.

It writes the entries the service would have written (docs/DESIGN.md): `game_created` with
every seat named and the seed's commitment, the opening events in the same batch, then one
batch per command whose first entry carries the command.
"""

from __future__ import annotations

from gamelog.entries import make_batch, to_dict
from gamelog.events import game_created
from replays.canonical import json_ready

DEFAULT_START_MS = 1_763_791_200_000
STEP_MS = 1_000


def log_entries(
    game: str,
    players: list[dict],
    seed: bytes,
    options: dict,
    opening: list[dict],
    turns: list[tuple[int, dict, list[dict]]],
    started_at: int = DEFAULT_START_MS,
    step_ms: int = STEP_MS,
) -> list[dict]:
    """Entries for a game: `players` as [{"name", "bot"?}], `opening` the events of
    `rules.start`, `turns` (seat, command, events) in order. `at` grows by `step_ms` a batch."""
    entries = make_batch(
        1, [game_created(game, options, players, seed), *opening], started_at, None, None
    )
    for turn, (seat, command, events) in enumerate(turns, start=1):
        at = started_at + turn * step_ms
        entries += make_batch(len(entries) + 1, events, at, seat, command)
    return json_ready([to_dict(entry) for entry in entries])


def play_log(
    game: str,
    bots: list[str],
    seed: bytes,
    bot_seed: int = 0,
    options: dict | None = None,
    names: list[str] | None = None,
    started_at: int = DEFAULT_START_MS,
) -> list[dict]:
    """Let bots (one name per seat) play a whole game in process (domain.playout) and return
    the log the service would have stored for it."""
    from domain.playout import play_game
    from domain.registry import get_rules

    rules = get_rules(game)
    turns: list[tuple[int, dict, list[dict]]] = []
    playout = play_game(
        rules,
        bots,
        seed,
        bot_seed,
        options,
        on_step=lambda seat, command, events: turns.append((seat, command, list(events))),
    )
    opening_count = len(playout.events) - sum(len(events) for _, _, events in turns)
    players = [
        {"name": names[seat] if names else f"{bot}-{seat}", "bot": bot}
        for seat, bot in enumerate(bots)
    ]
    return log_entries(
        game,
        players,
        seed,
        rules.normalize_options(options or {}),
        playout.events[:opening_count],
        turns,
        started_at=started_at,
    )
