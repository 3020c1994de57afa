"""The steps of a move's two requests (`POST /v1/games/{id}/moves`, `GET .../moves`),
Flask-free: each reads a WSGI environ or plain values, so the Flask views and hooks
(api.games.endpoints, api.core.auth, api.games.headers, api.core.ratelimit) and the fast path
(api.games.fast_moves) call
the same code for every step, and neither writes one again.
"""

from __future__ import annotations

import re

from werkzeug.exceptions import ClientDisconnected

from api.core import prefer
from api.core.api_error import ApiError
from api.core.schemas import MAX_INDEX, has_lone_surrogate
from api.core.strict_json import JSON_TYPE, parse_json
from api.games import presenters

IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
VERSION = re.compile(r"^[0-9]{1,15}$")  # a version below 2**53 (a safe JSON integer)
PLAIN_VERSION_QUERY = re.compile(r"version=([0-9]{1,15})", re.ASCII)
ETAG = re.compile(r'^(?:W/)?"?(\d{1,18})"?$')  # a version; 18 digits fit any int
MAX_ACTION_CHARS = 40  # MoveSchema.action
MAX_LENGTH_DIGITS = 9  # a longer Content-Length is over any limit: the general path says so
NO_STORE = "private, no-store"


def idempotency_key(environ: dict) -> str | None:
    """The move's `Idempotency-Key`, None without one; 422 when it is malformed."""
    key = environ.get("HTTP_IDEMPOTENCY_KEY")
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise ApiError(422, "invalid_idempotency_key", "Idempotency-Key: 1-200 visible ASCII")
    return key


def expected_version(command: dict, environ: dict) -> int | None:
    """The version the move expects: the body's `expected_version` (taken out of the
    command), else `If-Match`; None for neither; 422 for an If-Match that is no version."""
    expected = command.pop("expected_version", None)
    if expected is not None:
        return expected
    header = environ.get("HTTP_IF_MATCH")
    if header is None:
        return None
    match = ETAG.match(header.strip())
    if match is None:
        raise ApiError(422, "invalid_if_match", 'If-Match must be a version, e.g. "12"')
    return int(match.group(1))


def plain_version(query_string: str) -> int | None:
    """The version of a query that is `version=N` alone, None for any other query."""
    plain = PLAIN_VERSION_QUERY.fullmatch(query_string)
    return int(plain.group(1)) if plain else None


def version_of(values: list[str]) -> int | None:
    """The `version` query parameter given as `values` (None without one; 400 unless it is
    one version, as for any query parameter: api.core.bodies.query)."""
    if not values:
        return None
    if len(values) > 1 or not VERSION.match(values[0]):
        raise ApiError(400, "invalid_version", "version must be one game version, e.g. 12")
    return int(values[0])


def play_move(games, game_id, token, command, expected, key, minimal: bool, seat=None):
    """The service's answer to a move: rendered whole, or minimal (Prefer: return=minimal)."""
    render = presenters.minimal_move_result if minimal else presenters.move_result
    return games.play(
        game_id, token, command, render, expected_version=expected, idempotency_key=key, seat=seat
    )


def move_headers(answer, minimal: bool) -> list[tuple[str, str]]:
    """The headers of a move's answer: its version, and whether it was a repeat or minimal."""
    headers = [("ETag", f'"{answer.body["version"]}"')]
    if answer.repeated:
        headers.append(("Idempotent-Replayed", "true"))
    elif minimal:
        headers.append((prefer.APPLIED_HEADER, prefer.MINIMAL))
    return headers


def moves_answer(record, seat: int) -> dict:
    """LegalMoves of openapi.yaml as it is (no schema's dump: its values are of their types)."""
    return {"version": record.version, "seat": seat, "moves": presenters.legal_moves(record, seat)}


def seat_cache_control(environ: dict) -> str | None:
    """The Cache-Control of a seat's answer (which also varies by Authorization): never
    stored when the request names a credential; None: the view's own."""
    return NO_STORE if "HTTP_AUTHORIZATION" in environ else None


def plain_json_body(environ: dict, max_length: int) -> bytes | None:
    """`_plain_json_body` of a WSGI environ, read only when it has that shape."""
    size = plain_json_length(environ, max_length)
    return None if size is None else read_body(environ, size)


def read_body(environ: dict, size: int) -> bytes:
    """The `size` bytes of a request's body (`_read`)."""
    return _read(environ["wsgi.input"], size, "wsgi.input_terminated" in environ)


def plain_json_length(environ: dict, max_length: int) -> int | None:
    """The Content-Length of a body of the usual shape (None: any other body)."""
    if environ.get("CONTENT_TYPE") != JSON_TYPE or "HTTP_TRANSFER_ENCODING" in environ:
        return None
    length = environ.get("CONTENT_LENGTH")
    if not length or len(length) > MAX_LENGTH_DIGITS:
        return None
    if not length.isascii() or not length.isdigit():
        return None
    size = int(length)
    return size if size <= max_length else None


def usual_command(raw: bytes) -> dict | None:
    """The command of a plain JSON body read by `plain_json_body` when MoveSchema would
    load it as it is; None when it needs the schema; ApiError when it is not JSON."""
    data = parse_json(raw) if raw else None
    return data if isinstance(data, dict) and usual(data) else None


def _read(stream, size: int, terminated: bool) -> bytes:
    """`size` bytes of `stream`, as werkzeug reads them: a server that terminates the input
    may give fewer (the JSON then fails to parse); otherwise fewer means the client went
    away (400, werkzeug's ClientDisconnected)."""
    chunks, got = [], 0
    while got < size:
        chunk = stream.read(size - got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    if got < size and not terminated:
        raise ClientDisconnected()
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def usual(data: dict) -> bool:
    """Whether MoveSchema would load `data` as it is, without an error."""
    action = data.get("action")
    if type(action) is not str or not 1 <= len(action) <= MAX_ACTION_CHARS:
        return False
    if "expected_version" in data:
        version = data["expected_version"]
        if type(version) is not int or not 0 <= version <= MAX_INDEX:
            return False
    return _plain_text(data)


def _plain_text(value: object) -> bool:
    """No lone surrogate in any string or key of a parsed JSON value (MoveSchema's pre_load
    check); nesting is bounded by the parser's recursion limit."""
    if isinstance(value, str):
        return not has_lone_surrogate(value)
    if isinstance(value, dict):
        return all(not has_lone_surrogate(key) and _plain_text(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_plain_text(item) for item in value)
    return True
