"""JSON-ready views of a keltis-card state: per seat (R2) and fully revealed."""

from __future__ import annotations

from domain.card.cards import COLOURS, NAMES, POINT, ROWS, stones_of
from domain.card.scoring import outcome, seat_total
from domain.card.state import CLOSED, FINISHED, PHASE_OF_STEP, STATUS_COUNT, direction_of

GAME = "keltis-card"
# Every view of every request is built from these: a table lookup, not a call, per row.
_NAME = NAMES.__getitem__
_DIRECTION = tuple(direction_of(status) for status in range(STATUS_COUNT))


def _names(kinds) -> list[str]:
    return [*map(_NAME, kinds)]


def _seat_public(state, seat: int) -> dict:
    rows = state.rows[seat]
    held = state.stones_held[seat]
    colour_rows = {
        colour: {
            "cards": _names(row),
            "direction": _DIRECTION[status],
            "closed": status >= CLOSED,
        }
        # the colour rows only: the point row (the sixth) is shown apart
        for colour, row, status in zip(COLOURS, rows, state.row_status[seat], strict=False)
    }
    return {
        "seat": seat,
        "hand_size": len(state.hands[seat]),
        "known_cards": _names(state.shown[seat]),
        "rows": colour_rows,
        "point_row": _names(rows[5]),
        "stones": stones_of(held),
        "score": seat_total(rows, held),
    }


def public_view(state) -> dict:
    """Everything every seat and spectator may know."""
    piles = {ROWS[p]: _names(state.piles[p]) for p in range(6)}
    final = None
    if state.ender is not None:
        final = {
            "ended_by": state.ender,
            "reason": state.end_reason,
            "turns_left": state.final_left,
            "laid_this_turn": state.laid_in_final,
        }
    return {
        "game": GAME,
        "players": state.setup.players,
        "phase": str(PHASE_OF_STEP[state.step]),
        "step": state.step,
        "to_move": state.to_move,
        "draws_owed": state.draws_owed,
        "banned_piles": [ROWS[p] for p in range(6) if state.banned >> p & 1],
        "deck_size": state.deck_size,
        "removed_count": len(state.setup.removed),
        "piles": piles,
        "pile_tops": {name: cards[-1] if cards else None for name, cards in piles.items()},
        "stones_on_table": stones_of(state.stones_table),
        "closed_rows": state.closed_rows,
        "turns": state.turns,
        "idle_turns": state.idle_run,
        "progressed": state.progressed,
        "seats": [_seat_public(state, seat) for seat in range(state.setup.players)],
        "final_round": final,
        "result": outcome(state).to_dict() if state.step == FINISHED else None,
    }


def view(state, viewer: int | None) -> dict:
    """The state as `viewer` may see it: public info plus the viewer's own hand only."""
    if state.step == FINISHED:
        return full_view(state)
    result = public_view(state)
    result["viewer"] = viewer
    if viewer is not None and 0 <= viewer < state.setup.players:
        result["hand"] = _names(state.hands[viewer])
    return result


def full_view(state) -> dict:
    """Everything, hands, draw pile and removed cards included (finished games, replays)."""
    result = public_view(state)
    result["viewer"] = None
    result["hands"] = [_names(hand) for hand in state.hands]
    result["deck"] = _names(state.setup.deck[state.deck_pos :])
    result["removed"] = _names(state.setup.removed)
    return result


__all__ = ["POINT", "full_view", "public_view", "view"]
