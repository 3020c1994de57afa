"""Bearer tokens of seats: `<game id>.<seat>.<secret>`, stored only as SHA-256 hex."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

SECRET_BYTES = 24  # 192 random bits
SEAT = re.compile(r"[0-9]{1,2}", re.ASCII)  # ASCII digits only: "²".isdigit() is true


@dataclass(frozen=True, slots=True)
class TokenClaim:
    """What a token says about itself; only trusted once its hash matches."""

    game_id: str
    seat: int
    token: str


def new_token(game_id: str, seat: int) -> str:
    """A fresh token for one seat of one game."""
    return f"{game_id}.{seat}.{secrets.token_urlsafe(SECRET_BYTES)}"


def digest(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def parse(token: str) -> TokenClaim | None:
    """The claim of a well-formed token, else None."""
    parts = token.split(".")
    if len(parts) != 3 or not SEAT.fullmatch(parts[1]):
        return None
    return TokenClaim(game_id=parts[0], seat=int(parts[1]), token=token)


def matches(claim: TokenClaim, stored_digest: str | None) -> bool:
    """Constant-time comparison of a claimed token with the stored digest of its seat."""
    if stored_digest is None:
        return False
    return hmac.compare_digest(digest(claim.token), stored_digest)
