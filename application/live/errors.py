"""Errors of held requests: streams and long polls (application.live)."""

from __future__ import annotations

from domain.errors import KeltisError, Kind


class TooManyStreams(KeltisError):
    """The client address or the account holds as many streams and long polls as it may."""

    code = "too_many_streams"
    kind = Kind.RATE_LIMITED
    retry_after_s = 10


class StreamsBusy(KeltisError):
    """The web process holds its share of streams and long polls (the rest of its
    connections are kept for ordinary requests)."""

    code = "streams_busy"
    kind = Kind.UNAVAILABLE
    retry_after_s = 5
