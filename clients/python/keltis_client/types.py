"""The shapes of what the service sends and takes (TypedDicts: plain JSON dicts, typed).

Every TypedDict is `total=False` where the service leaves keys out for some games or
states; the README of the service shows a real example of each.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class Move(TypedDict, total=False):
    """One move, as `GET /v1/games/{id}/moves` lists it (POST it as is). keltis-card:
    `action` discard|wish|lay|draw|stop with `card`, `cards`, `row` or `source`;
    keltis-dice: reroll|keep|move|clover|pass with `dice` or `color`."""

    action: str
    card: str
    cards: list[str]
    row: str
    source: str
    dice: list[int]
    color: str


class LegalMoves(TypedDict):
    """`GET /v1/games/{id}/moves`: the seat's legal moves at `version` (empty: not its turn)."""

    version: int
    seat: int
    moves: list[Move]


class CardView(TypedDict, total=False):
    """A keltis-card seat's view (`game` is "keltis-card"); `hand` is the viewer's own."""

    game: str
    players: int
    phase: str
    step: str
    to_move: int
    draws_owed: int
    banned_piles: list[str]
    deck_size: int
    removed_count: int
    piles: dict[str, list[str]]
    pile_tops: dict[str, str | None]
    stones_on_table: list[int]
    closed_rows: int
    seats: list[dict[str, Any]]
    final_round: dict[str, Any] | None
    result: dict[str, Any] | None
    viewer: int | None
    hand: list[str]


class DiceView(TypedDict, total=False):
    """A keltis-dice view (`game` is "keltis-dice"): the board, the dice, every seat."""

    game: str
    players: int
    board: dict[str, Any]
    phase: str
    stage: str
    to_move: int
    dice: list[str]
    rerolled: bool
    rolls: int
    pending_clover: bool
    supply: int
    goal_markers: int
    goal_threshold: int
    seats: list[dict[str, Any]]
    end: dict[str, Any] | None
    result: dict[str, Any] | None


View = CardView | DiceView


class Player(TypedDict, total=False):
    seat: int
    name: str
    bot: str | None
    open: bool
    invite: bool
    account: str
    timeouts: int
    forfeited: bool


class Game(TypedDict, total=False):
    """`GET /v1/games/{id}` as a seat sees it (`view` is that seat's)."""

    id: str
    game: str
    options: dict[str, Any]
    status: str
    version: int
    to_move: int | None
    players: list[Player]
    clock: dict[str, Any] | None
    deadline: int | None
    seat: int | None
    view: View
    result: dict[str, Any] | None
    rated: bool
    created_at: int
    updated_at: int


class MoveResult(TypedDict, total=False):
    """`POST /v1/games/{id}/moves`: the new version, the events, the seat's new view and
    its legal moves now."""

    version: int
    status: str
    to_move: int | None
    events: list[dict[str, Any]]
    view: View
    legal_moves: list[Move]
    result: dict[str, Any] | None


class Account(TypedDict, total=False):
    """`POST /v1/accounts` and `POST /v1/me/key` (the only answers holding the secrets)."""

    name: str
    bot: bool
    webhook: str | None
    key: str
    webhook_secret: str


EventType = Literal[
    "your_turn",
    "game_started",
    "game_finished",
    "challenge",
    "challenge_accepted",
    "challenge_declined",
    "challenge_cancelled",
    "challenge_expired",
]


class Challenge(TypedDict, total=False):
    """A challenge record (`POST /v1/challenges`, and `challenge*` lines of the stream)."""

    id: str
    status: Literal["open", "accepted", "declined", "cancelled", "expired"]
    challenger: str
    opponents: list[dict[str, str]]
    game: str
    options: dict[str, Any]
    players: int
    clock: dict[str, Any] | None
    rated: bool
    seat_order: Literal["random", "given"]
    match: Literal["single", "two_boards"]
    created_at: int
    expires_at: int
    game_id: str | None
    match_id: str | None
    decline_reason: str | None
    accepted_by: list[str]


class Event(TypedDict, total=False):
    """One line of `GET /v1/me/events` (blank keep-alive lines are never yielded)."""

    type: str
    game: str
    version: int
    deadline: int | None
    challenge: Challenge


class Seek(TypedDict, total=False):
    """A seek (`POST /v1/seeks`): open while the account's stream is connected."""

    id: str
    status: str
    game: str
    options: dict[str, Any]
    players: int
    clock: dict[str, Any] | None
    rated: bool
    max_games: int
    games: list[str]
    created_at: int


DECLINE_REASONS = (
    "generic",
    "later",
    "too_fast",
    "too_slow",
    "time_control",
    "rated",
    "casual",
    "game",
    "board",
    "no_bot",
    "only_bot",
)
