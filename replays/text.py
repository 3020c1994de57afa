"""Plain-text rendering of replay steps for a terminal (`keltis replay show`)."""

from __future__ import annotations

import json

from domain.endless import IDLE_TURNS, TURN_LIMIT
from gamelog.results import ending as ended_as
from replays.tables import render_generic, render_view

WIDTH = 78


def step_title(step: dict, total: int, players: list[dict]) -> str:
    """The header line of one step: its number, version, actor and command."""
    if step["cmd"] is None:
        who, what = "service", "opening (shuffle, deal, first roll)"
    else:
        who = f"seat {step['by']} ({_name(players, step['by'])})"
        what = json.dumps(step["cmd"], ensure_ascii=False, sort_keys=True)
    title = f"step {step['step']}/{total - 1} · n={step['n']} · {who}: {what} "
    return "── " + title + "─" * max(0, WIDTH - len(title) - 3)


def render_step(step: dict, total: int, game: str, players: list[dict]) -> str:
    """One step: title, the events it caused, the whole table, the scores."""
    lines = [step_title(step, total, players)]
    lines.append("events: " + ", ".join(_event_text(e) for e in step["events"]))
    lines.append(render_view(game, step["view"], players))
    if step["scores"] is not None:
        lines.append(
            "scores: "
            + " | ".join(
                f"{_name(players, seat)} {score}" for seat, score in enumerate(step["scores"])
            )
        )
    return "\n".join(lines)


def render_summary(header: dict, result: dict | None) -> str:
    """The closing lines: final scores and winners."""
    players = header["players"]
    if not result:
        return "no result"
    lines = ["final result:", render_generic(result)]
    ending = ending_words(ended_as(result), header.get("game"))
    if ending:
        lines.append(f"game over: {ending}")
    winners = ", ".join(_name(players, seat) for seat in result.get("winners", []))
    shared = " (shared)" if result.get("shared") else ""
    lines.append(f"won by {winners}{shared}" if winners else "no winner")
    return "\n".join(lines)


# Why a game ended, as the replay viewer says it (replays/words.js endWords); the service
# rules' words name the game's own rule (card E4/E5, dice F5/F6).
_ENDINGS = {
    "idle_turns": (f"ended after {IDLE_TURNS} idle turns in a row (service rule {{}})", "E4", "F5"),
    "turn_limit": (f"ended at the {TURN_LIMIT}-turn limit (service rule {{}})", "E5", "F6"),
    "deck_empty": ("the draw pile ran out (E2)", "", ""),
    "fifth_row": ("a fifth row was closed (E1)", "", ""),
    "goal_markers": ("enough markers reached the goal zone (F1)", "", ""),
    "all_markers_in_goal": ("one player had all 4 markers in the goal zone (F1)", "", ""),
    "forfeit": ("every other player forfeited", "", ""),
    "cancelled": ("the game was cancelled", "", ""),
    "aborted": ("aborted: a seat never made a move of its own, so no result counts", "", ""),
}


def ending_words(ending: str | None, game: str | None) -> str:
    """Why a game ended in words, from its result's `ended_by` (or `ended`); "" when the
    result names neither (older logs) or an ending this version does not know."""
    if ending not in _ENDINGS:
        return ""
    words, card, dice = _ENDINGS[ending]
    return words.format(dice if game == "keltis-dice" else card)


def _event_text(event: dict) -> str:
    details = {k: v for k, v in event.items() if k not in ("type", "hidden")}
    details.update(event.get("hidden") or {})
    text = json.dumps(details, ensure_ascii=False, sort_keys=True)
    if len(text) > 90:
        text = text[:87] + "..."
    return f"{event['type']} {text}"


def _name(players: list[dict], seat) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return str(players[seat].get("name") or f"seat {seat}")
    return str(seat)
