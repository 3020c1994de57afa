"""Who is acting: a bearer token resolved to a seat, checked before anything reads hidden
state for that seat (R2).

Two kinds of bearer token, told apart by their form: a game token `<game id>.<seat>.<secret>`
names its seat; an account's token names an account, whose seats are those of the game whose
player has that account. An account's token is its key `kk_<secret>` (key-hash index -> name,
then the stored hash compared in constant time) or a sign-in session's token `ks_<secret>`
(the same index -> name, then the session's record, which must not have been idle too long;
application.accounts.sessions). Of several seats the account holds in one game, the one asked for
(`X-Keltis-Seat`) is used, else the seat to move, else the lowest.

`Actor` values are made only here (a verified game token or account key); the use cases hand
the rules nothing else as a caller's acting seat. Bots' moves come from the bot engine
(domain.autoplay) and are appended by the service itself (GameService.append_batch).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

import settings
from application.accounts.errors import SeatNotHeld, Unauthenticated, WrongGameToken
from gamelog.record import GameRecord
from store.accounts.records import AccountRecord, AccountStore
from store.core.clock import now_ms
from store.games import tokens
from store.games.eventstore import EventStore
from store.keys import GAME_ID_PATTERN


@dataclass(frozen=True, slots=True)
class Actor:
    """A seat whose right to act was verified: by its token (`token_hash` set) or as the
    service's own bot for that seat."""

    seat: int
    token_hash: str | None = None
    account: str | None = None


ACCOUNT_KEY_PREFIX = "kk_"
ACCOUNT_KEY_BYTES = 24  # 192 random bits
ACCOUNT_KEY = re.compile(r"kk_[A-Za-z0-9_-]{20,100}", re.ASCII)


SESSION_TOKEN_PREFIX = "ks_"
SESSION_TOKEN_BYTES = 32  # 256 random bits
SESSION_TOKEN = re.compile(r"ks_[A-Za-z0-9_-]{20,100}", re.ASCII)
TOUCH_EVERY_MS = 60_000  # a session's last use is written at most once a minute


def is_account_key(token: str | None) -> bool:
    """Whether a bearer token has the form of an account's token, its key or a sign-in
    session's (not a game token)."""
    return token is not None and token.startswith((ACCOUNT_KEY_PREFIX, SESSION_TOKEN_PREFIX))


def is_session_token(token: str | None) -> bool:
    """Whether a bearer token has the form of a sign-in session's token."""
    return token is not None and token.startswith(SESSION_TOKEN_PREFIX)


def new_session_token() -> str:
    return SESSION_TOKEN_PREFIX + secrets.token_urlsafe(SESSION_TOKEN_BYTES)


def session_idle_ms() -> int:
    """How long a session lasts unused (KELTIS_SESSION_IDLE_S), in ms."""
    return int(settings.current().session_idle_s * 1000)


def new_account_key() -> str:
    return ACCOUNT_KEY_PREFIX + secrets.token_urlsafe(ACCOUNT_KEY_BYTES)


def key_digest(key: str) -> str:
    """The stored form of an account key (SHA-256 hex)."""
    return hashlib.sha256(key.encode()).hexdigest()


def account_of(store: AccountStore, key: str | None) -> AccountRecord:
    """The account of a key: the key-hash index names it, and the record's stored hash must
    equal the key's (constant-time compare; a rotated key no longer matches). Unauthenticated
    otherwise."""
    if key is None:
        raise Unauthenticated("an account key is required (Authorization: Bearer kk_...)")
    if is_session_token(key):
        return session_account(store, key)
    if not ACCOUNT_KEY.fullmatch(key):
        raise Unauthenticated("the account key is not valid")
    digest = key_digest(key)
    name = store.name_of_key(digest)
    record = store.get(name) if name is not None else None
    if record is None or not hmac.compare_digest(digest, record.key_hash):
        raise Unauthenticated("the account key is not valid")
    return record


def session_account(store: AccountStore, token: str) -> AccountRecord:
    """The account of a sign-in session's token, as read through it (`session` names the
    session, `key_hash` is the token's hash); its last use noted at most once a minute.
    Unauthenticated when the session ended (revoked, or idle longer than its lifetime)."""
    ended = Unauthenticated("the session ended (signed out, or unused too long): sign in again")
    if not SESSION_TOKEN.fullmatch(token):
        raise ended
    digest = key_digest(token)
    name = store.name_of_key(digest)
    record, session = store.get_with_session(name, digest) if name else (None, None)
    if record is None or session is None:
        raise ended
    now, idle_ms = now_ms(), session_idle_ms()
    if now - session.last_used_at > idle_ms:
        store.sessions.remove(record.folded, [digest])
        raise ended
    if now - session.last_used_at >= TOUCH_EVERY_MS:
        used = dataclasses.replace(session, last_used_at=now)
        store.sessions.touch(record.folded, used, idle_ms)
    return dataclasses.replace(record, key_hash=digest, session=session.id)


def account_seat(record: GameRecord, account: str, wanted: int | None = None) -> Actor:
    """The seat a verified account acts for in this game (`pick_seat` of the seats it
    holds); SeatNotHeld when it holds none (or not `wanted`)."""
    held = [s for s, p in enumerate(record.players) if p.get("account") == account]
    if not held and wanted is None:
        raise SeatNotHeld("the account holds no seat in this game")
    return Actor(pick_seat(held, wanted, record.to_move), account=account)


def pick_seat(held: list[int], wanted: int | None, to_move: int | None = None) -> int | None:
    """The one check of a named seat (`X-Keltis-Seat`), for every endpoint and credential:
    `wanted` only if the caller's credential holds it (an account key its account's seats, a
    game token its one seat, no token none), SeatNotHeld otherwise, since acting or seeing
    as a seat one does not hold is never silently turned into another seat. Without
    `wanted`: the seat to move if held, else the lowest held, None when none is."""
    if wanted is not None:
        if wanted not in held:
            raise SeatNotHeld(f"the caller holds no seat {wanted} in this game")
        return wanted
    if not held:
        return None
    return to_move if to_move in held else held[0]


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
