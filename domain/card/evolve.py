"""keltis-card events and the reducer that folds them into a `CardState`.

Events (JSON-ready dicts; `hidden` fields follow `domain.visibility`):

    game_started     {players, options, hidden: {deck: [names, top first], removed: [names]}}
                     no owner: secret to everyone until the game is over (S1, R2)
    cards_dealt      {seat, owner: seat, count: 8, hidden: {cards: [names, sorted]}}   (S2)
    card_discarded   {seat, card, pile}                                                 (P1)
    stone_wished     {seat, cards: [a, b], stone}                                       (P2)
    card_laid        {seat, card, row}                                            (P3, P4, E3)
    card_drawn       {seat, source: "deck", owner: seat, hidden: {card}}               (D1)
                     {seat, source: <pile>, card}  (a discard pile is public)
    final_round_started {by_seat, reason: "fifth_row" | "deck_empty"                (E1-E3)
                                          | "idle_turns" | "turn_limit"}                (E4, E5)
    player_stopped   {seat}                                                             (E3)
    game_ended       {scores: [...], winners: [...], shared, ended_by}             (K4, E6)
                     ended_by: the reason of the final round (no ended_by in older logs)

Turn structure: after a play (discard / wish / lay) the same seat owes one draw (two after
a wish); the last owed draw passes the turn. A lay that closes the fifth row is followed by
`final_round_started` (no draw, D2); so is a draw of the deck's last card (E2). In the final
round a seat's turn ends after its second lay or a `player_stopped`; `game_ended` follows
the last final-round action. The last owed draw of the 30th idle turn in a row (E4) or of
the 400th turn (E5) is followed by `final_round_started` too. Deal order: with 2 players
the first 30 shuffled cards are removed; then seat 0 gets the next 8, seat 1 the 8 after,
and so on; the rest is the draw pile, its top first.
"""

from __future__ import annotations

from bisect import insort

from domain.card.cards import KIND_OF, PILE_OF, POINT_BASE, ROWS
from domain.card.state import (
    CLOSED,
    DRAW,
    FINAL_ROUND,
    FINISHED,
    NEXT_STATUS,
    PLAY,
    CardState,
    Setup,
    initial_state,
)
from domain.endless import counts_after_turn
from domain.game import evolve_all

ROW_INDEX = {name: index for index, name in enumerate(ROWS)}
# A discard and a draw (most of a game's events) build the new state field by field, each
# set once, rather than cloning and overwriting half of it.
_new = object.__new__
SOURCE_INDEX = {**ROW_INDEX, "deck": 6}


# Tuples are rebuilt through lists: cheaper than slicing them; the hot reducers (a discard,
# a draw) do the same inline.
def _replace(items: tuple, index: int, value) -> tuple:
    items = [*items]
    items[index] = value
    return (*items,)


def _without(hand: tuple, kind: int) -> tuple:
    cards = [*hand]
    cards.remove(kind)
    return (*cards,)


def _hands_without(state, seat: int, kind: int) -> tuple[tuple, tuple]:
    """(hands, shown) once a card leaves `seat`'s hand: it is no longer known to be there
    either (one copy)."""
    hands = [*state.hands]
    hand = [*hands[seat]]
    hand.remove(kind)
    hands[seat] = (*hand,)
    shown = state.shown[seat]
    if kind in shown:
        return (*hands,), _replace(state.shown, seat, _without(shown, kind))
    return (*hands,), state.shown


def _game_started(state, event):
    setup = Setup(
        players=event["players"],
        options=dict(event.get("options") or {}),
        deck=tuple(map(KIND_OF.__getitem__, event["hidden"]["deck"])),
        removed=tuple(map(KIND_OF.__getitem__, event["hidden"]["removed"])),
    )
    return initial_state(setup, ((),) * setup.players)


def _cards_dealt(state, event):
    new = state.clone()
    hand = tuple(sorted(map(KIND_OF.__getitem__, event["hidden"]["cards"])))
    new.hands = _replace(state.hands, event["seat"], hand)
    return new


def _card_discarded(state, event):
    seat = event["seat"]
    kind = KIND_OF[event["card"]]
    pile = PILE_OF[kind]
    new = _new(CardState)
    new.setup = state.setup
    new.board = state.board
    new._legal = None
    hands = [*state.hands]  # _hands_without, inline: most turns discard
    hand = [*hands[seat]]
    hand.remove(kind)
    hands[seat] = (*hand,)
    new.hands = (*hands,)
    shown = state.shown[seat]
    new.shown = _replace(state.shown, seat, _without(shown, kind)) if kind in shown else state.shown
    piles = [*state.piles]
    piles[pile] = (*piles[pile], kind)
    new.piles = (*piles,)
    new.deck_pos = state.deck_pos
    new.to_move = state.to_move
    new.step = DRAW
    new.draws_owed = 1
    new.banned = state.banned | 1 << pile
    new.turns = state.turns
    new.idle_run = state.idle_run
    new.progressed = False
    return new


def _stone_wished(state, event):
    seat = event["seat"]
    hand = state.hands[seat]
    piles = state.piles
    banned = state.banned
    shown = state.shown[seat]
    for name in event["cards"]:
        kind = KIND_OF[name]
        pile = PILE_OF[kind]
        hand = _without(hand, kind)
        if kind in shown:
            shown = _without(shown, kind)
        piles = _replace(piles, pile, (*piles[pile], kind))
        banned |= 1 << pile
    stone = 1 << event["stone"]
    new = state.clone()
    new.hands = _replace(state.hands, seat, hand)
    new.shown = _replace(state.shown, seat, shown)
    new.piles = piles
    new.banned = banned
    board = new.board = state.board.copy()
    board.stones_table &= ~stone
    board.stones_held = _replace(board.stones_held, seat, board.stones_held[seat] | stone)
    new.step = DRAW
    new.draws_owed = 2
    new.progressed = True
    return new


def _advance_final(new, board, players: int) -> None:
    """The next seat's final-round turn, or the end (E3); `board` is `new`'s own copy."""
    board.laid_in_final = 0
    board.final_left -= 1
    if board.final_left <= 0:
        new.step = FINISHED
        new.to_move = None
    else:
        new.to_move = (new.to_move + 1) % players


def _card_laid(state, event):
    seat = event["seat"]
    kind = KIND_OF[event["card"]]
    row = ROW_INDEX[event["row"]]
    new = state.clone()
    new.hands, new.shown = _hands_without(state, seat, kind)
    board = new.board = state.board.copy()
    rows = [*board.rows]
    seat_rows = [*rows[seat]]
    seat_rows[row] = (*seat_rows[row], kind)
    rows[seat] = (*seat_rows,)
    board.rows = (*rows,)
    if kind < POINT_BASE:
        status = board.row_status[seat]
        before = status[row]
        after = NEXT_STATUS[before][kind % 12]
        board.row_status = _replace(board.row_status, seat, _replace(status, row, after))
        if after == CLOSED and before != CLOSED:
            board.closed_rows += 1
    if state.step == PLAY:
        new.step = DRAW
        new.draws_owed = 1
        new.progressed = True
    elif state.step == FINAL_ROUND:
        board.laid_in_final += 1
        if board.laid_in_final >= 2:
            _advance_final(new, board, state.setup.players)
    return new


def _card_drawn(state, event):
    seat = event["seat"]
    new = _new(CardState)
    new.setup = state.setup
    new.board = state.board
    new._legal = None
    if event["source"] == "deck":
        kind = KIND_OF[event["hidden"]["card"]]
        new.deck_pos = state.deck_pos + 1
        new.piles = state.piles
        new.shown = state.shown
        progressed = True
    else:
        new.deck_pos = state.deck_pos
        source = ROW_INDEX[event["source"]]
        piles = [*state.piles]
        pile = piles[source]
        kind = pile[-1]
        piles[source] = pile[:-1]
        new.piles = (*piles,)
        shown = [*state.shown]
        cards = [*shown[seat]]
        insort(cards, kind)
        shown[seat] = (*cards,)
        new.shown = (*shown,)
        progressed = state.progressed
    hands = [*state.hands]
    hand = [*hands[seat]]
    insort(hand, kind)
    hands[seat] = (*hand,)
    new.hands = (*hands,)
    owed = state.draws_owed - 1
    new.draws_owed = owed
    new.progressed = progressed
    if owed <= 0:
        new.step = PLAY
        new.banned = 0
        new.to_move = (seat + 1) % state.setup.players
        new.turns, new.idle_run = counts_after_turn(state.turns, state.idle_run, progressed)
    else:
        new.step = state.step
        new.banned = state.banned
        new.to_move = state.to_move
        new.turns = state.turns
        new.idle_run = state.idle_run
    return new


def _final_round_started(state, event):
    by_seat = event["by_seat"]
    new = state.clone()
    new.step = FINAL_ROUND
    new.draws_owed = 0
    new.banned = 0
    board = new.board = state.board.copy()
    board.ender = by_seat
    board.end_reason = event["reason"]
    board.final_left = state.setup.players
    board.laid_in_final = 0
    new.to_move = (by_seat + 1) % state.setup.players
    return new


def _player_stopped(state, event):
    new = state.clone()
    new.board = state.board.copy()
    _advance_final(new, new.board, state.setup.players)
    return new


def _game_ended(state, event):
    if state.step == FINISHED:
        return state
    new = state.clone()
    new.step = FINISHED
    new.to_move = None
    return new


REDUCERS = {
    "game_started": _game_started,
    "cards_dealt": _cards_dealt,
    "card_discarded": _card_discarded,
    "stone_wished": _stone_wished,
    "card_laid": _card_laid,
    "card_drawn": _card_drawn,
    "final_round_started": _final_round_started,
    "player_stopped": _player_stopped,
    "game_ended": _game_ended,
}


def evolve(state, event):
    """The state after one more event; never mutates `state`."""
    return REDUCERS[event["type"]](state, event)


def fold(events) -> object:
    """The state after all `events` (the first must be `game_started`)."""
    return evolve_all(evolve, None, events)
