"""Which webhook URLs the service may call (SSRF guard): http(s), no userinfo, bounded
length, and a host whose every address lies in the operator's allow-list
(`KELTIS_WEBHOOK_ALLOW`, comma-separated CIDRs; default loopback only).

`check` resolves the host with `socket.getaddrinfo` only, bounded in time, and connects to
nothing; the webhook caller runs it again before every call (a name may resolve elsewhere
later).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

from application.errors import WebhookNotAllowed

DEFAULT_ALLOW = "127.0.0.0/8,::1/128"
MAX_URL_CHARS = 500
RESOLVE_TIMEOUT_S = 2.0
SCHEMES = frozenset({"http", "https"})

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], list[str]]


@cache
def _resolvers() -> ThreadPoolExecutor:
    """The few threads that resolve names (made on first use)."""
    return ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-resolve")


def parse_allow(setting: str) -> tuple[Network, ...]:
    """The networks of a comma-separated CIDR list (ValueError on a malformed one)."""
    return tuple(
        ipaddress.ip_network(part.strip(), strict=False)
        for part in setting.split(",")
        if part.strip()
    )


def allow_from_env() -> tuple[Network, ...]:
    """The allow-list of KELTIS_WEBHOOK_ALLOW (default loopback only)."""
    return parse_allow(os.environ.get("KELTIS_WEBHOOK_ALLOW", DEFAULT_ALLOW))


def system_resolve(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to (getaddrinfo; no connection is made)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [info[4][0] for info in infos]


@dataclass(frozen=True, slots=True)
class Target:
    """A checked webhook URL: its scheme, host name, port, the allowed address to connect
    to, and the path (with its query)."""

    scheme: str
    host: str
    port: int
    address: str
    path: str


@dataclass(frozen=True)
class WebhookPolicy:
    """The allow-list and how names are resolved (tests pass their own resolver)."""

    allow: tuple[Network, ...]
    resolve: Resolver = system_resolve
    timeout_s: float = RESOLVE_TIMEOUT_S

    def check(self, url: str) -> str:
        """`url` when the service may call it; WebhookNotAllowed otherwise."""
        self.pin(url)
        return url

    def pin(self, url: str) -> Target:
        """Where a call to `url` connects: an address the host resolves to, now, inside the
        allow-list (the caller connects to it, not to the name: no DNS rebinding between
        check and call); WebhookNotAllowed otherwise."""
        host, port = _host_and_port(url)
        addresses = self._addresses(host, port)
        if not addresses or not all(_allowed(address, self.allow) for address in addresses):
            raise WebhookNotAllowed(
                "the webhook's host does not resolve into the operator's allow-list "
                "(KELTIS_WEBHOOK_ALLOW)"
            )
        parts = urlsplit(url)
        path = parts.path or "/"
        if parts.query:
            path = f"{path}?{parts.query}"
        return Target(parts.scheme, host, port, addresses[0].split("%", 1)[0], path)

    def _addresses(self, host: str, port: int) -> list[str]:
        try:
            literal = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        if literal is not None:
            return [str(literal)]
        future = _resolvers().submit(self.resolve, host, port)
        try:
            return future.result(timeout=self.timeout_s)
        except FutureTimeout:
            raise WebhookNotAllowed("the webhook's host did not resolve in time") from None
        except (OSError, UnicodeError):
            raise WebhookNotAllowed("the webhook's host does not resolve") from None


def _host_and_port(url: str) -> tuple[str, int]:
    if len(url) > MAX_URL_CHARS:
        raise WebhookNotAllowed(f"a webhook URL has at most {MAX_URL_CHARS} characters")
    if not url.isascii() or any(ch.isspace() or ord(ch) < 0x20 for ch in url):
        raise WebhookNotAllowed("a webhook URL is printable ASCII without spaces")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise WebhookNotAllowed("the webhook URL is malformed") from None
    if parts.scheme not in SCHEMES:
        raise WebhookNotAllowed("a webhook URL is http or https")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise WebhookNotAllowed("a webhook URL carries no user information")
    if not parts.hostname:
        raise WebhookNotAllowed("a webhook URL names a host")
    return parts.hostname, port or (443 if parts.scheme == "https" else 80)


def _allowed(address: str, allow: Iterable[Network]) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # drop an IPv6 zone id
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in allow)
