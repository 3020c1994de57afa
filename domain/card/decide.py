"""Options and commands to events: `normalize_options`, `start` (S1, S2) and `decide`
(every rule of a turn)."""

from __future__ import annotations

from collections.abc import Mapping

from domain.card.cards import (
    CANONICAL_DECK,
    COLOURS,
    END,
    KIND_OF,
    NAMES,
    PILE_OF,
    POINT_BASE,
    ROWS,
    VALUE_OF,
)
from domain.card.commands import (
    DECK_SOURCE,
    DRAW_BASE,
    LAY_BASE,
    SOURCES,
    STOP_CODE,
    WISH_BASE,
    CardCommand,
    describe,
    legal_commands,
    parse,
)
from domain.card.evolve import REDUCERS
from domain.card.scoring import outcome
from domain.card.state import CLOSED, DRAW, FINAL_ROUND, FINISHED, PLAY
from domain.chance import Chance
from domain.endless import IDLE_TURNS, TURN_LIMIT, counts_after_turn, service_ending
from domain.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn

HAND_SIZE = 8
REMOVED_WITH_TWO = 30
FIFTH_ROW = 5
MIN_PLAYERS, MAX_PLAYERS = 2, 4
# A turn's end can trigger E4 or E5 only from these counts on (checked before the call,
# as most draws are far from both).
_IDLE_BEFORE_END = IDLE_TURNS - 1
_TURN_BEFORE_END = TURN_LIMIT - 1


def normalize_options(options: Mapping | None) -> dict:
    """keltis-card has no options yet: {} is the only valid value."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InvalidOptions("options must be an object")
    if options:
        raise InvalidOptions(f"unknown options: {sorted(map(str, options))}")
    return {}


def start(players: int, options: Mapping, chance: Chance) -> list[dict]:
    """Shuffle, remove 30 cards with 2 players (S1), deal 8 each in seat blocks (S2)."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions(f"keltis-card takes {MIN_PLAYERS} to {MAX_PLAYERS} players", "S1")
    options = normalize_options(options)
    order = chance.shuffled(CANONICAL_DECK, "deck")
    cut = REMOVED_WITH_TWO if players == 2 else 0
    removed, rest = order[:cut], order[cut:]
    hands = [rest[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(players)]
    deck = rest[players * HAND_SIZE :]
    events = [
        {
            "type": "game_started",
            "players": players,
            "options": options,
            "hidden": {"deck": deck, "removed": removed},
        }
    ]
    for seat, hand in enumerate(hands):
        events.append(
            {
                "type": "cards_dealt",
                "seat": seat,
                "owner": seat,
                "count": HAND_SIZE,
                "hidden": {"cards": sorted(hand, key=KIND_OF.__getitem__)},
            }
        )
    return events


def _why_illegal(state, seat: int, code: int) -> IllegalMove:
    """The rule a parsed but illegal command breaks."""
    what = describe(code)
    hand = state.hands[seat]
    step = state.step
    if step == DRAW and what[0] != "draw":
        return IllegalMove(f"draw {state.draws_owed} card(s) now", rule="D1")
    if step == FINAL_ROUND and what[0] not in ("lay", "stop"):
        return IllegalMove("in the final round you may only lay cards or stop", rule="E3")
    if step == PLAY and what[0] in ("draw", "stop"):
        rule = "E3" if what[0] == "stop" else "P1"
        return IllegalMove("play a card first (discard, wish or lay)", rule=rule)
    if what[0] == "draw":
        source = what[1]
        if source != DECK_SOURCE and state.banned >> source & 1:
            return IllegalMove("never draw a card discarded in this same turn", rule="D1")
        return IllegalMove(f"the {SOURCES[source]} pile is empty", rule="D1")
    if what[0] == "discard":
        return IllegalMove(f"{NAMES[what[1]]} is not in your hand", rule="P1")
    if what[0] == "wish":
        low, high = what[1], what[2]
        if (hand.count(low) < 2) if low == high else (low not in hand or high not in hand):
            return IllegalMove("both wish cards must be in your hand", rule="P2")
        if not 1 <= (VALUE_OF[low] or 0) <= 9:
            return IllegalMove("wishing stones have values 1 to 9", rule="P2")
        return IllegalMove(f"wishing stone {VALUE_OF[low]} is already taken", rule="P2")
    if what[0] == "lay":
        kind, row = what[1], what[2]
        rule = "P4" if kind >= POINT_BASE else "P3"
        if kind not in hand:
            return IllegalMove(f"{NAMES[kind]} is not in your hand", rule=rule)
        status = state.row_status[seat][row]
        if kind >= POINT_BASE:
            return IllegalMove(
                "a point card goes on your point row or on an open row ending in its value",
                rule="P4",
            )
        if status >= CLOSED:
            return IllegalMove(f"your {COLOURS[row]} row is closed", rule="P3")
        return IllegalMove(f"{NAMES[kind]} breaks the direction of your row", rule="P3")
    return IllegalMove("not a legal move now", rule=None)


def _end_by_service_rules(state, seat: int, from_deck: bool, events: list[dict]) -> None:
    """E4, E5: after the turn's last owed draw, the final round when the turn was the 30th
    idle one in a row or the 400th."""
    if state.draws_owed != 1:
        return
    turns, idle_run = counts_after_turn(state.turns, state.idle_run, state.progressed or from_deck)
    reason = service_ending(turns, idle_run)
    if reason is not None:
        events.append({"type": "final_round_started", "by_seat": seat, "reason": reason})


def _game_ended(state, events: list[dict]) -> dict:
    for event in events:
        state = REDUCERS[event["type"]](state, event)
    result = outcome(state)
    return {
        "type": "game_ended",
        "scores": list(result.scores),
        "winners": list(result.winners),
        "shared": result.shared,
        "ended_by": state.end_reason,
    }


def decide(state, seat: int, command: Mapping, chance: Chance | None = None) -> list[dict]:
    """The events of one legal command; raises a DomainError naming the broken rule."""
    if state.step == FINISHED:
        raise GameOver("the game is over", rule="K4")
    if seat != state.to_move:
        raise NotYourTurn(f"it is seat {state.to_move}'s turn", rule="S2")
    if type(command) is not CardCommand:
        command = parse(command)
    legal = state._legal
    if legal is None:
        legal = legal_commands(state)
    if command not in legal:  # shared commands: found by identity
        raise _why_illegal(state, seat, command.code)
    code = command.code
    # Draws first: every turn has one or two, and they have the highest codes.
    if DRAW_BASE <= code < STOP_CODE:
        source = code - DRAW_BASE
        if source != DECK_SOURCE:
            pile = state.piles[source]
            events = [
                {
                    "type": "card_drawn",
                    "seat": seat,
                    "source": ROWS[source],
                    "card": NAMES[pile[-1]],
                }
            ]
            if state.draws_owed == 1 and (
                state.idle_run >= _IDLE_BEFORE_END or state.turns >= _TURN_BEFORE_END
            ):
                _end_by_service_rules(state, seat, False, events)
            return events
        deck = state.setup.deck
        position = state.deck_pos
        events = [
            {
                "type": "card_drawn",
                "seat": seat,
                "source": "deck",
                "owner": seat,
                "hidden": {"card": NAMES[deck[position]]},
            }
        ]
        if position + 1 >= len(deck):
            events.append({"type": "final_round_started", "by_seat": seat, "reason": "deck_empty"})
            return events
        if state.draws_owed == 1 and state.turns >= _TURN_BEFORE_END:
            _end_by_service_rules(state, seat, True, events)
        return events
    if code < LAY_BASE:
        return [
            {
                "type": "card_discarded",
                "seat": seat,
                "card": NAMES[code],
                "pile": ROWS[PILE_OF[code]],
            }
        ]
    if code < WISH_BASE:
        kind, row = divmod(code - LAY_BASE, 6)
        events = [{"type": "card_laid", "seat": seat, "card": NAMES[kind], "row": ROWS[row]}]
        if state.step == PLAY:
            if (
                kind < POINT_BASE
                and kind % 12 == END
                and state.board.row_status[seat][row] < CLOSED
                and state.board.closed_rows + 1 >= FIFTH_ROW
            ):
                events.append(
                    {"type": "final_round_started", "by_seat": seat, "reason": "fifth_row"}
                )
        elif state.laid_in_final == 1 and state.final_left == 1:
            events.append(_game_ended(state, events))
        return events
    if code < DRAW_BASE:
        low, high = divmod(code - WISH_BASE, 71)
        cards = [NAMES[low], NAMES[high]]
        return [{"type": "stone_wished", "seat": seat, "cards": cards, "stone": VALUE_OF[low]}]
    events = [{"type": "player_stopped", "seat": seat}]
    if state.final_left == 1:
        events.append(_game_ended(state, events))
    return events


__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "decide", "normalize_options", "start"]
