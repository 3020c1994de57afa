"""A seat's legal moves at a version the caller names (`GET /v1/games/{id}/moves?version=N`).

A client that knows the game's version (from its POST's answer, a stream line or a long
poll) names it, and a process that holds that very version of the game (its record cache,
`store.core.cache`) answers from its copy, without a round trip to Redis: a version of an
append-only log never changes, so the moves at version N are the same whenever they are
read. The seat token is verified against the copy's token hashes (a seat's hash is written
once and never changes), so nothing is served before the caller is authenticated.

Any other case reads the game as a plain GET does; a game that is not at version N then
answers 409 `version_conflict` naming its version. Like any read, a 200 may be overtaken by
a move made elsewhere a moment later: a POST with `expected_version` N then gets its 409.
Account keys always take the plain read (a replaced key must stop working at once).
"""

from __future__ import annotations

from application.accounts import auth
from application.accounts.errors import Unauthenticated
from application.games.errors import VersionConflict
from gamelog.record import GameRecord


def cached_seat(games, game_id: str, token: str | None, version: int):
    """(the record at `version`, the token's verified seat) from this process's copy, or None
    when the copy cannot answer: none at exactly `version`, an account key, a token of
    another game or of a seat the copy does not hold (the plain read decides those)."""
    if token is None or auth.is_account_key(token):
        return None
    loaded = games.cache.get(game_id)
    if loaded is None or loaded.record.version != version:
        return None
    claim = auth.claim_of(token)
    if claim.game_id != game_id or claim.seat not in loaded.token_hashes:
        return None
    return loaded.record, auth.verify(claim, loaded.token_hashes).seat


def seat_at(
    games, game_id: str, token: str | None, seat: int | None, version: int | None
) -> tuple[GameRecord, int]:
    """The game and the caller's verified seat (Unauthenticated without one), at `version`
    when one is named (from the process's copy when it holds it, else one read that must
    find the game at `version`: 409 otherwise), else at its newest version. The caller is
    authenticated before the version is compared."""
    if version is not None:
        found = cached_seat(games, game_id, token, version)
        if found is not None:
            auth.pick_seat([found[1]], seat)
            return found
    record, found_seat = games.read(game_id, token, seat)
    if found_seat is None:
        raise Unauthenticated("a seat's bearer token is required")
    if version is not None and record.version != version:
        raise VersionConflict.stale(version, record.version)
    return record, found_seat
