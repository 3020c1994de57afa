"""Build the replay of a finished game from its stored log entries (replays/FORMAT.md)."""

from __future__ import annotations

from domain.game import FINISHED, GameRules
from domain.registry import get_rules
from gamelog.events import ENDED_ABORTED, ENDED_CANCELLED
from gamelog.results import aborted, presented_result
from replays.canonical import json_ready
from replays.chain import build_chain
from replays.errors import GameNotFinished, MalformedLog
from replays.log import GameLog, entry_dict, parse_log

FORMAT = "keltis-replay"
FORMAT_VERSION = 1
DEFAULT_RULES_VERSION = "1"


def rules_of(game: str) -> GameRules:
    """The rules of a game named in a log or replay; MalformedLog for an unknown name."""
    if not isinstance(game, str):
        raise MalformedLog(f"the game's name is not a string: {game!r}")
    try:
        return get_rules(game)
    except KeyError:
        raise MalformedLog(f"unknown game {game!r}") from None


def rules_version(rules: GameRules) -> str:
    """The version string a game's rules declare (`version` attribute), "1" if none."""
    return str(getattr(rules, "version", DEFAULT_RULES_VERSION))


def final_state(log: GameLog, rules: GameRules):
    """The state after every logged event; GameNotFinished unless the game is over (R2)."""
    if log.opening is None:
        raise GameNotFinished("the game has not started; only finished games have replays")
    state = rules.fold(log.rule_events)
    if rules.phase(state) != FINISHED and not log.ended_early:
        raise GameNotFinished(
            f"the game is {rules.phase(state)}; only finished games have replays (R2)"
        )
    return state


def build_replay(game_id: str, entries, rules: GameRules | None = None) -> dict:
    """The replay (a JSON-ready dict) of a finished game from its stored entries, entry 1
    first (decoded dicts, raw JSON, or store Entry objects). Raises GameNotFinished for a
    live game (R2) and MalformedLog for a broken log."""
    entries = json_ready([entry_dict(entry) for entry in entries])
    log = parse_log(entries)
    rules = rules or rules_of(log.game)
    state = final_state(log, rules)
    created = log.created
    seed = (created.get("hidden") or {}).get("seed")
    if not isinstance(seed, str):
        raise MalformedLog("game_created holds no seed", 1)
    replay = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "header": {
            "game_id": game_id,
            "game": log.game,
            "rules_version": rules_version(rules),
            "options": created.get("options", {}),
            "players": list(log.players),
            "created_at": entries[0]["at"],
            "started_at": log.opening.entries[0]["at"],
            "ended_at": entries[-1]["at"],
            "entry_count": len(entries),
        },
        "seed": seed,
        "seed_sha256": created.get("seed_sha256"),
        "result": json_ready(result_of(log, rules, state)),
        "entries": entries,
    }
    replay["chain"] = build_chain(replay)
    return replay


def result_of(log: GameLog, rules: GameRules, state, aborts: bool = True) -> dict | None:
    """The result a replay records: the rules', as presented when a seat forfeited or the
    game ended aborted (gamelog.results: rated, a seat never moved; `aborts` False: as
    replays exported before aborts were shown recorded it)."""
    forfeited = log.forfeited
    cancelled = log.ended_early == ENDED_CANCELLED
    rated = log.rated or log.aborts
    void = aborts and aborted(rated, cancelled, len(log.moved), len(log.players))
    ended = ENDED_ABORTED if void else log.ended_early
    if not forfeited and not ended:
        return rules.result(state)
    scored = None if log.ended_early else rules.result(state)
    return presented_result(scored, len(log.players), set(forfeited), ended)
