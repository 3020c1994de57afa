"""The `Prefer: return=minimal` request header (RFC 7240) of POST /v1/games/{id}/moves: a
caller that needs only the new version, its events and its next legal moves is answered
without its rendered view (`view: null`), which saves the move the view's rendering; the
answer then says `Preference-Applied: return=minimal`. Any other preference is ignored, as
RFC 7240 allows."""

from __future__ import annotations

HEADER = "Prefer"
ENVIRON_KEY = "HTTP_PREFER"
APPLIED_HEADER = "Preference-Applied"
MINIMAL = "return=minimal"
MAX_HEADER_CHARS = 1000  # a longer header is not looked into (its preferences are ignored)


def minimal_in(environ: dict) -> bool:
    """True when the Prefer header of a request (a WSGI environ) holds `return=minimal`."""
    text = environ.get(ENVIRON_KEY)  # repeated headers arrive joined by commas
    if not text or len(text) > MAX_HEADER_CHARS:
        return False
    for preference in text.split(","):
        name, _, _ = preference.partition(";")  # parameters after ';' change nothing here
        if name.strip().replace(" ", "").lower() == MINIMAL:
            return True
    return False
