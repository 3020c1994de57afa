"""Keys of held requests and notifications: waits, held slots per client, pub/sub channels."""

from __future__ import annotations

from store.keys.games import PREFIX, games_by_status


def games_waiting() -> str:
    """Sorted set of the games that wait for seats (never started), scored by creation (ms):
    what the expiry sweep looks at (the listing's own set of waiting games)."""
    return games_by_status("waiting")


def client_held(client_id: str) -> str:
    """Sorted set of a client address's held streams and long polls (slot id -> ms its
    lease ends, store.live.streams)."""
    return f"{PREFIX}:held:{{c:{client_id}}}"


def client_waiting_games(client_id: str) -> str:
    """Sorted set of the waiting games a client (a remote address) created, by creation (ms)."""
    return f"{PREFIX}:quota:waiting:{client_id}"


# ----- notifications (pub/sub channels: hints that a log grew, never the truth) ----------------


def game_channel(game_id: str) -> str:
    """The channel told of every new version of a game (hash-tagged like its keys, so a
    sharded channel lives on the game's slot)."""
    return f"{PREFIX}:notify:game:{{{game_id}}}"


def account_turns_channel() -> str:
    """The doorbell of the webhook threads: told (with the commit on a standalone Redis,
    right after it on a cluster) whenever an account seat is to move. A hint: the threads
    also look every 50 ms."""
    return f"{PREFIX}:notify:account-turns"


def account_channel(folded_name: str) -> str:
    """The channel told of every new version of the games in which an account holds a seat."""
    return f"{PREFIX}:notify:account:{{a:{folded_name}}}"
