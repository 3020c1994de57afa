"""One bounded webhook POST: to the checked address only (application.webhooks.policy.Target),
no redirect followed, every socket wait bounded by the turn's deadline, and at most
MAX_BODY_BYTES of the answer read. A failed call raises WebhookFailure with the timeout
reason it stands for.

HTTPS connects to the checked address too, while the certificate must be valid for the URL's
host name (SNI and the host name check use it). It is checked against the system's CAs, or,
when KELTIS_WEBHOOK_CA_FILE names a PEM bundle, against the CAs of that bundle instead. A
certificate that does not check out (or any TLS failure) is the timeout reason `tls`.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from functools import cache

import settings
from application.webhooks.policy import Target

MAX_BODY_BYTES = 64 * 1024
CHUNK_BYTES = 16 * 1024
CA_FILE_ENV = "KELTIS_WEBHOOK_CA_FILE"


class WebhookFailure(Exception):
    """The webhook gave no usable answer; `reason` is the timeout's reason."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Unreachable(Exception):
    """No connection could be made (nothing answered): the turn waits for its deadline."""


class _Pinned(http.client.HTTPConnection):
    """HTTP to the checked address, with the URL's host in the Host header."""

    def __init__(self, target: Target, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


@cache
def _tls_context(ca_file: str | None) -> ssl.SSLContext:
    """The verifying TLS context (host names checked) trusting `ca_file`'s CAs, or the
    system's when None; one per bundle, shared by every call."""
    return ssl.create_default_context(cafile=ca_file)


def tls_context() -> ssl.SSLContext:
    """The context of webhook calls: KELTIS_WEBHOOK_CA_FILE's CAs, else the system's."""
    return _tls_context(settings.current().webhook_ca_file)


class _PinnedTLS(http.client.HTTPSConnection):
    """HTTPS to the checked address; the certificate is checked against the URL's host."""

    def __init__(self, target: Target, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout, context=tls_context())
        self.address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _left(until_s: float) -> float:
    left = until_s - time.time()
    if left <= 0:
        raise WebhookFailure("deadline")
    return left


def post(target: Target, body: bytes, headers: dict[str, str], until_s: float) -> bytes:
    """POST `body` and return the answer's body (2xx only); WebhookFailure (`deadline`,
    `tls`, `redirect`, `http_status`, `too_large`) or Unreachable otherwise. `until_s`: the
    deadline, in seconds since the epoch."""
    kind = _PinnedTLS if target.scheme == "https" else _Pinned
    connection = kind(target, timeout=_left(until_s))
    try:
        try:
            connection.connect()
        except TimeoutError:
            raise WebhookFailure("deadline") from None
        except ssl.SSLError:  # an answering server whose TLS does not check out
            raise WebhookFailure("tls") from None
        except OSError as error:
            raise Unreachable(str(error)) from None
        sock = connection.sock  # kept: a closing answer takes it off the connection
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            sock.settimeout(_left(until_s))
            response = connection.getresponse()
            if 300 <= response.status < 400:
                raise WebhookFailure("redirect")
            if not 200 <= response.status < 300:
                raise WebhookFailure("http_status")
            length = response.getheader("Content-Length")
            if length is not None and length.isdigit() and int(length) > MAX_BODY_BYTES:
                raise WebhookFailure("too_large")
            return _read_bounded(sock, response, until_s)
        except TimeoutError:
            raise WebhookFailure("deadline") from None
        except ssl.SSLError:
            raise WebhookFailure("tls") from None
        except (OSError, http.client.HTTPException):
            raise WebhookFailure("http_status") from None
    finally:
        connection.close()


def _read_bounded(sock: socket.socket, response, until_s: float) -> bytes:
    """At most MAX_BODY_BYTES + 1 bytes of the body, each read bounded by the deadline."""
    chunks, size = [], 0
    while size <= MAX_BODY_BYTES:
        sock.settimeout(_left(until_s))
        chunk = response.read1(min(CHUNK_BYTES, MAX_BODY_BYTES + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > MAX_BODY_BYTES:
        raise WebhookFailure("too_large")
    _left(until_s)
    return b"".join(chunks)
