"""Consent to a tournament: an account plays in one only once it entered itself.

The organiser names the entries (`bots`): built-in bots are entered by the organiser; an
account named there is invited, unless the request carries that account's own key (it
enters itself at creation). An invited account enters with its own key
(`POST /v1/tournaments/{id}/entries`); no game starts while an invitation is open, so every
account seated in a tournament game, whose results are rated, entered itself."""

from __future__ import annotations

from store.tournaments.records import TournamentStore
from tournaments import errors
from tournaments.spec import TournamentSpec, account_name, is_account


def invite(store: TournamentStore, tid: str, spec: TournamentSpec, entrant: str | None) -> None:
    """Write the account entries of a new tournament: `entrant` (the caller's own account,
    by its key) entered, every other one invited. Before the tournament is stored, so no
    pass ever launches a game of an account that did not enter."""
    names = [account_name(entry) for entry in spec.bots if is_account(entry)]
    mine = [n for n in names if entrant is not None and n.lower() == entrant.lower()]
    store.invite(tid, [n for n in names if n not in mine], mine)


def enter(store: TournamentStore, tid: str, account: str) -> bool:
    """The account enters the tournament it was invited to (again: no change); True once
    no invitation is open (the tournament may start). NotInvited for an account not among
    its entries; TournamentOver once it was finished or cancelled."""
    spec, _ = store.load(tid)
    if store.is_cancelled(tid) or store.done(tid) >= spec.games:
        raise errors.TournamentOver("the tournament is over already")
    if store.enter(tid, account) is None:
        raise errors.NotInvited(f"{account!r} is not among this tournament's entries")
    return not store.awaiting(tid)


def waiting(store: TournamentStore, tid: str) -> bool:
    """Whether an invitation is open: the tournament launches no game yet."""
    return bool(store.awaiting(tid))
