"""Caching headers of answers that depend on who asks (a seat's hand, its legal moves)."""

from __future__ import annotations

from flask import Flask, Response, request

from api.games import move_steps

# Answers that differ by the Authorization header: a seat sees its own hand and moves.
PER_SEAT = frozenset({"games.get_game", "games.get_moves", "games.get_events", "games.post_move"})
# Answers that carry a new seat token: never stored by any cache.
TOKENS = frozenset({"games.create_game", "games.join_seat"})
# Answers about the caller's own account (and its new key): never stored by any cache.
ACCOUNT = frozenset(
    {
        "accounts.create_account",
        "accounts.get_me",
        "accounts.patch_me",
        "accounts.rotate_key",
        "accounts.my_games",
    }
)


def _caching(response: Response) -> Response:
    """`private, no-store` on a seat's answers and on tokens; `Vary: Authorization`."""
    endpoint = request.endpoint
    if endpoint in PER_SEAT:
        _vary_on_authorization(response)
        cache_control = move_steps.seat_cache_control(request.environ)
        if cache_control is not None:
            response.headers["Cache-Control"] = cache_control
    elif endpoint in TOKENS or endpoint in ACCOUNT:
        response.headers["Cache-Control"] = "no-store"
    return response


def _vary_on_authorization(response: Response) -> None:
    """Add `Authorization` to the Vary header (as `response.vary.add` does, without parsing
    the header into a set on every answer of a seat: a move's hot path)."""
    headers = response.headers
    # headers.get("Vary") raises and catches a KeyError when there is none (the usual case)
    vary = next((value for name, value in headers.items() if name.lower() == "vary"), None)
    if vary is None:
        headers.add("Vary", "Authorization")
    elif not vary:
        headers["Vary"] = "Authorization"
    elif "authorization" not in {name.strip().lower() for name in vary.split(",")}:
        response.headers["Vary"] = f"{vary}, Authorization"


def init_app(app: Flask) -> None:
    """Register the hook on every answer, errors included."""
    app.after_request(_caching)
