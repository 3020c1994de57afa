"""Ids and seeds of a tournament's games, derived from the tournament's id and seed.

- In-process (`keltis tournament` without --server), game k (from 0) of seed S plays with
  the 32-byte game seed SHA-256(utf8(f"{S}:game:{k}")): game k of `keltis simulate --seed S`.
- On the service the seed material is f"{S}/{salt}", the salt being 32 random bytes (hex)
  the server draws when the tournament is created: the randomness comes from the server
  (R1) and nobody can compute a live game's deck from the client's seed (R2). Seed and salt
  are published once every game is over, so each game's seed can then be re-derived and
  checked against the `seed_sha256` of its `game_created` event.
- A two-board match's boards are seeded from the seed material each (`board_seed`), never
  one from the other: a finished board's replay shows its seed while the next board plays.
- Game k's id is f"{tournament id}-g{k}": a rerun of its job finds the same game.
"""

from __future__ import annotations

import hashlib
import re
import secrets

TOURNAMENT_ID_BYTES = 12  # 16 URL-safe characters
TOURNAMENT_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,40}$")


def new_tournament_id() -> str:
    """A fresh random tournament id ([A-Za-z0-9_-] only)."""
    return secrets.token_urlsafe(TOURNAMENT_ID_BYTES)


def seed_material(seed: str, salt: str | None) -> str:
    """What the game seeds derive from: the seed, and the server's salt when there is one."""
    return seed if salt is None else f"{seed}/{salt}"


def game_seed(seed: str, game: int, salt: str | None = None) -> bytes:
    """The 32-byte seed of game `game` of a tournament of seed `seed` (and `salt`)."""
    return hashlib.sha256(f"{seed_material(seed, salt)}:game:{game}".encode()).digest()


def board_seed(seed: str, game: int, board: str, salt: str | None = None) -> bytes:
    """The 32-byte seed of board `board` ("basic", "advanced") of two-board match `game`:
    the basic board plays the game's own seed, the advanced one SHA-256(utf8(
    f"{material}:game:{game}:advanced")), unknowable from the basic board's seed."""
    if board == "basic":
        return game_seed(seed, game, salt)
    return hashlib.sha256(f"{seed_material(seed, salt)}:game:{game}:{board}".encode()).digest()


def bot_seed(seed: str, game: int) -> int:
    """The bots' random seed of game `game` when played in-process (as `keltis simulate`)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:bots:{game}".encode()).digest()[:8], "big")


def game_id(tournament_id: str, game: int) -> str:
    """The id of game `game` of a tournament (a valid game id: [A-Za-z0-9_-]{16,64})."""
    return f"{tournament_id}-g{game}"


def seed_sha256(seed: str, salt: str | None = None) -> str:
    """The commitment to a tournament's seed material shown while the tournament runs."""
    return hashlib.sha256(seed_material(seed, salt).encode()).hexdigest()
