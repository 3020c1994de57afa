"""The creator of a game cancels it: the game ends `cancelled` (unrated, no result), its
queued bot turns find it over and do nothing, and the unused part of its bot CPU charge is
given back (application.budget.service).

Who created a game is its creator record (store.keys.game_creator): the digest of the
creator token the create answer gave, and the creator's account when it was created with an
account key. Either one cancels it.

A rated game (or a game of a rated two-board match) is aborted only before every seat has
made a move of its own, as lichess aborts only before both sides moved: from then on it ends
by a result (resignation, time, forfeit, the rules), so a loser cannot wipe out a loss. The
abort is appended at the version it was checked at, so a move that lands first wins the
race and the abort is refused. A match's second game starts only after its first was played
out, so it is never aborted.
"""

from __future__ import annotations

import hmac
import secrets

from application.accounts import auth
from application.accounts.errors import Unauthenticated
from application.budget import service as budget
from application.games.errors import GameAlreadyOver, VersionConflict
from application.games.service import GameService
from domain.errors import KeltisError, Kind
from gamelog import events
from gamelog.entries import make_batch
from gamelog.record import GameRecord, fold_entries
from store import keys
from store.budget.records import BudgetStore
from store.games import tokens

CREATOR_PREFIX = "kc_"
CREATOR_BYTES = 24
CANCEL_ATTEMPTS = 5
RATED_MATCH = "rated_match"  # a creator record's field: the board (1, 2) of a rated match
ABORT_RULE = "abort_before_every_seat_moved"


class NotCreator(KeltisError):
    """The credential given is not the game's creator's (403)."""

    code = "not_creator"
    kind = Kind.FORBIDDEN


class TooLateToAbort(KeltisError):
    """A rated game in which every seat has moved ends by a result, not a cancel (409)."""

    code = "too_late_to_abort"
    kind = Kind.CONFLICT


CANCEL_ATTEMPTS = 5


def new_creator_token() -> str:
    """A fresh creator token (shown once, in the create answer)."""
    return CREATOR_PREFIX + secrets.token_urlsafe(CREATOR_BYTES)


def record_creator(
    store: BudgetStore,
    game_id: str,
    token: str,
    account: str | None,
    ticket=None,
    payer: str | None = None,
    rated_match: int | None = None,
) -> None:
    """Write a new game's creator record: its creator token's digest, the creator's
    account, who pays for its bots (`payer`, else the ticket's: its bot turns are served
    in that payer's turn, application.operations.jobs), the bot CPU charged for it, the payer's
    limits (if any) and, for a game of a rated two-board match, its board (1 or 2)."""
    store.open_record(
        keys.game_creator(game_id),
        *budget.ticket_charge(ticket),
        creator=tokens.digest(token),
        account=account,
        payer=payer or (ticket.payer.id if ticket is not None else None),
        limits=budget.ticket_limits(ticket),
        rated_match=rated_match,
    )


def check_creator(service: GameService, creator: dict, token: str | None) -> None:
    """Unauthenticated without a credential, NotCreator unless it is the creator token or
    the key of the creator's account."""
    if not token:
        raise Unauthenticated("the creator token (or the creator's account key) is required")
    stored = creator.get("creator", "")
    if stored and hmac.compare_digest(stored, tokens.digest(token)):
        return
    if auth.is_account_key(token):
        holder = auth.account_of(service.accounts, token)  # Unauthenticated when invalid
        if creator.get("account") and holder.folded == creator["account"]:
            return
    raise NotCreator("only the game's creator may cancel it")


def check_abortable(record: GameRecord, creator: dict) -> None:
    """TooLateToAbort for a rated game (or a rated match's game) in which every seat has
    made a move of its own, and for a rated match's second game (its first was played)."""
    board = creator.get(RATED_MATCH)
    if board == "2":
        raise TooLateToAbort(
            "the second game of a rated match starts after the first was played: the match"
            " ends by a result (resign, time, the rules), it cannot be aborted",
            ABORT_RULE,
        )
    if (record.rated or board) and record.all_moved:
        raise TooLateToAbort(
            "every seat has moved: a rated game is aborted only before that; now it ends by"
            " a result (resign, time, the rules)",
            ABORT_RULE,
        )


def cancel(service: GameService, store: BudgetStore, game_id: str, token: str | None):
    """Cancel a game for its creator; the record after. GameNotFound, Unauthenticated,
    NotCreator, GameAlreadyOver (finished, expired or cancelled already), TooLateToAbort."""
    record: GameRecord = service.load(game_id)[0]
    creator = store.record(keys.game_creator(game_id))
    check_creator(service, creator, token)
    for _ in range(CANCEL_ATTEMPTS):
        if record.expired or record.finished:
            raise GameAlreadyOver("the game is over already")
        check_abortable(record, creator)
        ended = events.game_ended_early(events.ENDED_CANCELLED)
        batch = make_batch(record.version + 1, [ended], service.clock(), None, None)
        after = fold_entries(record, game_id, batch)
        if service.append_batch(record, batch, after):  # checked at the version appended to
            budget.settle(store, keys.game_creator(game_id))
            return after
        record = service.load(game_id)[0]
    raise VersionConflict("the game is too busy; try again", record.version)


def cancel_game(service: GameService, record: GameRecord) -> bool:
    """Mark a running game cancelled (appended with its expected version); True if this
    call did, False when it was over already."""
    for _ in range(CANCEL_ATTEMPTS):
        if record.finished:
            return False
        ended = events.game_ended_early(events.ENDED_CANCELLED)
        batch = make_batch(record.version + 1, [ended], service.clock(), None, None)
        after = fold_entries(record, record.game_id, batch)
        if service.append_batch(record, batch, after):
            return True
        record = service.load(record.game_id)[0]
    return False
