"""Game analyses in Redis: one hash per game (its status, job, claim time, result or error)."""

from __future__ import annotations

from store import keys
from store.core.codec import text, text_fields


def read(client, game_id: str) -> dict:
    """The game's analysis record as text fields ({}: never requested)."""
    return text_fields(client.hgetall(keys.game_analysis(game_id)))


def read_result(client, game_id: str) -> bytes | None:
    """The finished analysis's JSON (None: none done)."""
    return client.hget(keys.game_analysis(game_id), "result")


def claim_new(client, game_id: str, status: str, job: str, now: float) -> bool:
    """Create the record with `status` unless there is one (True: created)."""
    key = keys.game_analysis(game_id)
    if client.hsetnx(key, "status", status):
        client.hset(key, mapping={"job": job, "claimed_at": now})
        return True
    return False


def status_and_claimed(client, game_id: str) -> tuple[str | None, float]:
    """The record's status and claim time (None, 0.0: no record)."""
    status, claimed = client.hmget(keys.game_analysis(game_id), "status", "claimed_at")
    return (None if status is None else text(status)), float(claimed or 0)


def drop(client, game_id: str) -> None:
    """Forget the record."""
    client.delete(keys.game_analysis(game_id))


def write(client, game_id: str, mapping: dict) -> None:
    """Set fields of the record."""
    client.hset(keys.game_analysis(game_id), mapping=mapping)
