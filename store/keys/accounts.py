"""Keys of accounts (hash tag `{a:<lowercased name>}`)."""

from __future__ import annotations

from store.keys.games import PREFIX

# ----- accounts ------------------------------------------------------------------------------
# One account's keys carry the hash tag `{a:<lowercased name>}`; the key-hash index spans them.


def _account(folded_name: str, part: str) -> str:
    return f"{PREFIX}:account:{{a:{folded_name}}}:{part}"


def account(folded_name: str) -> str:
    """Hash: the account record (name as written, bot, webhook, key_hash, webhook_secret,
    created_at), one per name folded to lower case."""
    return _account(folded_name, "record")


def account_games(folded_name: str) -> str:
    """Sorted set of the games in which the account holds a seat, scored by creation (ms)."""
    return _account(folded_name, "games")


def account_games_of(folded_name: str, game: str) -> str:
    """Sorted set of the account's games of the game `game` (its profile counts them)."""
    return _account(folded_name, f"games:game:{game}")


def account_playing(folded_name: str) -> str:
    """Sorted set of the account's games in play (active or final round), by creation (ms)."""
    return _account(folded_name, "playing")


def account_skeleton(skeleton: str) -> str:
    """String: an account name's confusable skeleton (application.accounts.name_skeleton) -> the
    folded name holding it; a sign-up whose skeleton is held is refused."""
    return f"{PREFIX}:account-skeleton:{skeleton}"


def account_pattern() -> str:
    """SCAN pattern of every account record."""
    return f"{PREFIX}:account:*:record"


def account_webhook_answered(folded_name: str) -> str:
    """String: ms of the account's webhook's last answer (a turn's legal move, or a
    liveness probe's 2xx; application.bots.webhook_probe)."""
    return _account(folded_name, "webhook-answered")


def account_webhook_probe_failed(folded_name: str) -> str:
    """String, expiring: a liveness probe of the account's webhook failed lately (no other
    probe while it exists; application.bots.webhook_probe)."""
    return _account(folded_name, "webhook-probe-failed")


def account_webhook_error(folded_name: str) -> str:
    """String: JSON of the last failed webhook call of an account (its owner sees it in
    GET /v1/me; the public log only shows the turn's timeout at its deadline)."""
    return _account(folded_name, "webhook-error")


def account_key(key_hash: str) -> str:
    """String: SHA-256 hex of an account key, or of a sign-in session's token (expiring when
    the session has been idle too long) -> the account's folded name."""
    return f"{PREFIX}:account-key:{key_hash}"


def account_sessions(folded_name: str) -> str:
    """Hash: the account's sign-in sessions, SHA-256 hex of the token -> JSON {id,
    created_at, last_used_at, user_agent, address} (store.accounts.sessions)."""
    return _account(folded_name, "sessions")


def sign_in_attempts(limit: str, who: str, window: int) -> str:
    """String, expiring: sign-in attempts of `who` (an address, or a folded name and an
    address) in one fixed window of one limit (store.accounts.sign_in_limits)."""
    return f"{PREFIX}:sign-in:{{{who}}}:{limit}:{window}"


def account_streams(folded_name: str) -> str:
    """Sorted set of the account's held streams and long polls (slot id -> ms its lease
    ends, store.live.streams)."""
    return _account(folded_name, "streams")
