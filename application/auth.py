"""Who is acting: a bearer token resolved to a seat, checked before anything reads hidden
state for that seat (R2).

`Actor` values are made only here (a verified token) and by `bot_actor` (the service acting
for a bot seat); the use cases hand the rules nothing else as the acting seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from application.errors import Unauthenticated, WrongGameToken
from gamelog.record import GameRecord
from store import tokens
from store.eventstore import EventStore
from store.keys import GAME_ID_PATTERN


@dataclass(frozen=True, slots=True)
class Actor:
    """A seat whose right to act was verified: by its token (`token_hash` set) or as the
    service's own bot for that seat."""

    seat: int
    token_hash: str | None = None


def claim_of(token: str) -> tokens.TokenClaim:
    """The claim of a well-formed token; Unauthenticated otherwise."""
    claim = tokens.parse(token)
    if claim is None:
        raise Unauthenticated("the bearer token is not valid")
    return claim


def verify(claim: tokens.TokenClaim, token_hashes: dict[int, str]) -> Actor:
    """The seat of a claim whose token matches the stored hash (constant-time compare);
    Unauthenticated otherwise."""
    stored = token_hashes.get(claim.seat)
    if not tokens.matches(claim, stored):
        raise Unauthenticated("the bearer token is not valid for this game")
    return Actor(claim.seat, stored)


def refuse_foreign(store: EventStore, claim: tokens.TokenClaim) -> None:
    """A token naming another game: WrongGameToken when it is valid there (one small read of
    that seat's hash), else Unauthenticated."""
    if GAME_ID_PATTERN.match(claim.game_id):
        stored = store.token_hash(claim.game_id, claim.seat)
        if tokens.matches(claim, stored):
            raise WrongGameToken("the bearer token belongs to another game")
    raise Unauthenticated("the bearer token is not valid")


def bot_actor(record: GameRecord) -> Actor | None:
    """The seat to move when a bot holds it (the service acts for it), else None."""
    seat = record.to_move
    if seat is None or not record.players[seat].get("bot"):
        return None
    return Actor(seat)
