"""Answers of built-once files (application.games.replay_reads): in the coding the client accepts
(brotli, else gzip, else none), with a strong ETag and If-None-Match -> 304.

The ETag is the digest of the unpacked body, with `:br` or `:gzip` appended when the answer
is compressed, as the web client's static files have it (api.webclient.compression); any of
these names the same body, so any of them revalidates. `Cache-Control: no-cache`: a cache
may keep the file but asks again each time (a cheap 304), as a game's analysis may be added.
"""

from __future__ import annotations

from flask import Response, request

from application.common.codings import CODINGS, unpacked
from application.games.replay_reads import File

CACHE_CONTROL = "public, no-cache"


def accepted_coding() -> str | None:
    """The coding to answer in: the one of CODINGS the client rates highest (the first of
    CODINGS on a tie), None when it accepts neither."""
    accepted = request.accept_encodings
    best = max(CODINGS, key=lambda coding: (accepted[coding], -CODINGS.index(coding)))
    return best if accepted[best] > 0 else None


def file_response(found: File, coding: str | None, mimetype: str) -> Response:
    """The file as `coding` asks (None: unpacked, streamed piece by piece), or 304 when the
    request's If-None-Match names its ETag."""
    tags = request.if_none_match  # compared weakly, as If-None-Match is (RFC 9110 13.1.2)
    named = tags.as_set(include_weak=True) - {None}  # `""` parses as None
    if tags.star_tag or any(tag.split(":", 1)[0] == found.etag for tag in named):
        response = Response(status=304)
    elif coding is None:
        response = Response(unpacked(found.body), mimetype=mimetype)
        response.headers["Content-Length"] = str(found.length)
    else:
        response = Response(found.body, mimetype=mimetype)
        response.headers["Content-Encoding"] = coding
    response.headers["ETag"] = f'"{found.etag}:{coding}"' if coding else f'"{found.etag}"'
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response
