"""One account, one seat: a game seats an account at most once, unless it is an unrated game
whose creator allowed it (`allow_same_account`). Two seats of one account in a rated game
would let it rate itself and read two hands with one key."""

from __future__ import annotations

from collections.abc import Iterable

from application.games.errors import RatedNeedsAccount
from domain.errors import KeltisError, Kind
from gamelog.record import GameRecord


class AccountSeatedTwice(KeltisError):
    """A new game names one account for several seats (422)."""

    code = "account_already_seated"


class AccountAlreadySeated(AccountSeatedTwice):
    """The account joining holds a seat of this game already (409)."""

    kind = Kind.CONFLICT


class SameAccountUnrated(KeltisError):
    """`allow_same_account` is for unrated games only."""

    code = "same_account_rated"


def _folded(name: str) -> str:
    return name.lower()


def check_new_game(players: Iterable[dict], rated: bool, allow_same_account: bool) -> None:
    """AccountSeatedTwice when an account takes two seats of a new game that does not allow
    it (every rated game; an unrated one unless `allow_same_account`)."""
    if allow_same_account and rated:
        raise SameAccountUnrated("a rated game seats each account once: allow_same_account")
    if allow_same_account:
        return
    seen: dict[str, int] = {}
    for seat, player in enumerate(players):
        account = player.get("account")
        if not account:
            continue
        if _folded(account) in seen:
            raise AccountSeatedTwice(
                f"seat {seat}: account {account!r} holds seat {seen[_folded(account)]} already"
                " (a game seats an account once unless unrated with allow_same_account)"
            )
        seen[_folded(account)] = seat


def check_join(record: GameRecord, account: str | None) -> None:
    """AccountAlreadySeated when `account` holds a seat of `record` already and the game does
    not allow a second one."""
    if account is None or (record.allow_same_account and not record.rated):
        return
    for seat, player in enumerate(record.players):
        held = player.get("account")
        if held and _folded(held) == _folded(account):
            raise AccountAlreadySeated(
                f"account {account!r} holds seat {seat} of this game already"
                " (a game seats an account once unless unrated with allow_same_account)"
            )


def check_entries(accounts: Iterable[str]) -> None:
    """AccountSeatedTwice when a tournament enters one account twice: its games are rated,
    so a game drawing both entries would seat the account twice."""
    seen: set[str] = set()
    for account in accounts:
        if _folded(account) in seen:
            raise AccountSeatedTwice(f"account {account!r} is entered twice: enter it once")
        seen.add(_folded(account))


def check_rated_consent(players: Iterable[dict], rated: bool) -> None:
    """RatedNeedsAccount for a rated game asked for over the API that seats built-in bots
    only: a rated game needs a player who agreed to it (the creator's own account, or an
    open seat joined with an account key); bots alone would farm ratings."""
    if rated and all(p.get("bot") for p in players):  # a person's seat: UnratedSeat
        raise RatedNeedsAccount(
            "a rated game seats your own account (create it with your key) or an open seat"
            " joined with an account key: built-in bots alone are not rated"
        )
