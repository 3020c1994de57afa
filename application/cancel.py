"""The creator of a game cancels it: the game ends `cancelled` (unrated, no result), its
queued bot turns find it over and do nothing, and the unused part of its bot CPU charge is
given back (application.budget).

Who created a game is its creator record (store.keys.game_creator): the digest of the
creator token the create answer gave, and the creator's account when it was created with an
account key. Either one cancels it.
"""

from __future__ import annotations

import hmac
import secrets

from application import auth, budget
from application.errors import GameOver, Unauthenticated
from application.games import GameService
from application.open_tournaments import cancel_game
from domain.errors import KeltisError, Kind
from gamelog.record import GameRecord
from store import keys, tokens
from store.budget import BudgetStore

CREATOR_PREFIX = "kc_"
CREATOR_BYTES = 24


class NotCreator(KeltisError):
    """The credential given is not the game's creator's (403)."""

    code = "not_creator"
    kind = Kind.FORBIDDEN


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
) -> None:
    """Write a new game's creator record: its creator token's digest, the creator's
    account, who pays for its bots (`payer`, else the ticket's: its bot turns are served
    in that payer's turn, application.jobs), the bot CPU charged for it and the payer's
    limits (if any)."""
    store.open_record(
        keys.game_creator(game_id),
        *budget.ticket_charge(ticket),
        creator=tokens.digest(token),
        account=account,
        payer=payer or (ticket.payer.id if ticket is not None else None),
        limits=budget.ticket_limits(ticket),
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


def cancel(service: GameService, store: BudgetStore, game_id: str, token: str | None):
    """Cancel a game for its creator; the record after. GameNotFound, Unauthenticated,
    NotCreator, GameOver (finished, expired or cancelled already)."""
    record: GameRecord = service.load(game_id)[0]
    check_creator(service, store.record(keys.game_creator(game_id)), token)
    if record.expired or record.finished or not cancel_game(service, record):
        raise GameOver("the game is over already")
    budget.settle(store, keys.game_creator(game_id))
    return service.load(game_id)[0]
