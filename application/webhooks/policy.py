"""Which webhook URLs the service may call (SSRF guard): http(s), no userinfo, bounded
length, a host that is a DNS name or an IP address in its canonical spelling, and every
address it resolves to public, or inside a network the operator allowed.

- Public: globally routable unicast (`ipaddress`'s is_global, and none of private,
  loopback, link-local, site-local, multicast, reserved, unspecified, CGNAT), judged on the
  IPv4 address an IPv6 one carries too (IPv4-mapped `::ffff:a.b.c.d` and IPv4-compatible
  `::a.b.c.d` are that IPv4 address; 6to4, Teredo and NAT64 must carry a public one).
- `KELTIS_WEBHOOK_ALLOW` (comma-separated CIDRs; default none) lets the operator allow
  non-public networks: `make run` and the tests allow loopback (LOOPBACK_ALLOW).
- Never the service's own ports on a non-public address, even an allowed one: its Redis
  server's port and the ports of KELTIS_SERVICE_PORT (`keltis serve` sets its own).
- A host spelled as a number other than a canonical dotted quad (`127.1`, `2130706433`,
  `0x7f000001`, `0177.0.0.1`) is refused: parsers disagree on those.

`check` resolves the host with `socket.getaddrinfo` only, bounded in time, and connects to
nothing; the webhook caller runs it again before every call (a name may resolve elsewhere
later) and connects to the address it checked.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

import settings
from application.webhooks.errors import WebhookNotAllowed

DEFAULT_ALLOW = ""  # public addresses only
LOOPBACK_ALLOW = "127.0.0.0/8,::1/128"  # what `make run` and the tests allow
MAX_URL_CHARS = 500
RESOLVE_TIMEOUT_S = 2.0
SCHEMES = frozenset({"http", "https"})
LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")
NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
# Unreserved characters and percent-escapes only (plus `=&` in a query): a webhook is a
# bot's own endpoint, and a narrow alphabet is one openapi.yaml's pattern can state.
URL_PATH = re.compile(r"^(/([A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})*)*$")
URL_QUERY = re.compile(r"^([A-Za-z0-9._~=&-]|%[0-9A-Fa-f]{2})*$")
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
COMPATIBLE = ipaddress.ip_network("::/96")
# Not globally reachable (IANA special-purpose registries) though some Python versions
# call them global: CGNAT, IETF protocol assignments, the 6to4 relay anycast.
NOT_PUBLIC = tuple(
    ipaddress.ip_network(net) for net in ("100.64.0.0/10", "192.0.0.0/24", "192.88.99.0/24")
)

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
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
    """The operator's allowed non-public networks: KELTIS_WEBHOOK_ALLOW (default none)."""
    return parse_allow(settings.current().webhook_allow)


def service_ports(client=None) -> frozenset[int]:
    """The service's own ports: its Redis server's (from the client's connection settings;
    none for a unix socket) and KELTIS_SERVICE_PORT's (comma-separated)."""
    ports = set(settings.current().service_ports)
    if client is not None:
        pool = getattr(client, "connection_pool", None)
        kwargs = getattr(pool, "connection_kwargs", {}) if pool is not None else {}
        if kwargs.get("port") and not kwargs.get("path"):
            ports.add(int(kwargs["port"]))
        for node in getattr(client, "get_nodes", lambda: [])():  # a Redis Cluster
            ports.add(int(node.port))
    return frozenset(ports)


def policy_from_env(client=None) -> WebhookPolicy:
    """The service's policy: KELTIS_WEBHOOK_ALLOW, and the ports of `client`'s Redis and of
    KELTIS_SERVICE_PORT closed."""
    return WebhookPolicy(allow_from_env(), closed_ports=service_ports(client))


def system_resolve(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to (getaddrinfo; no connection is made)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [info[4][0] for info in infos]


def canonical(ip: Address) -> Address:
    """The address connected to: an IPv4-mapped or IPv4-compatible IPv6 address is its
    IPv4 address."""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return ip.ipv4_mapped
        if ip in COMPATIBLE and int(ip) > 1:
            return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip


def carried(ip: Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (6to4, Teredo, NAT64)."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return []
    found = []
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    if any(ip in net for net in NAT64):
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def is_public(ip: Address) -> bool:
    """Globally routable unicast, and so is every IPv4 address it carries."""
    ip = canonical(ip)
    if (
        not ip.is_global
        or ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or getattr(ip, "is_site_local", False)
        or any(ip.version == net.version and ip in net for net in NOT_PUBLIC)
    ):
        return False
    return all(is_public(inner) for inner in carried(ip))


def allowed(ip: Address, allow: Iterable[Network]) -> bool:
    """Public, or inside one of `allow` (and so is every IPv4 address it carries)."""
    ip = canonical(ip)
    nets = tuple(allow)

    def ok(one: Address) -> bool:
        return is_public(one) or any(one.version == n.version and one in n for n in nets)

    return ok(ip) and all(ok(inner) for inner in carried(ip))


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
    """The operator's allowed networks, the closed ports, and how names are resolved
    (tests pass their own resolver)."""

    allow: tuple[Network, ...] = ()
    resolve: Resolver = system_resolve
    timeout_s: float = RESOLVE_TIMEOUT_S
    closed_ports: frozenset[int] = frozenset()

    def check(self, url: str) -> str:
        """`url` when the service may call it; WebhookNotAllowed otherwise."""
        self.pin(url)
        return url

    def pin(self, url: str) -> Target:
        """Where a call to `url` connects: an address the host resolves to, now, that is
        allowed (the caller connects to it, not to the name: no DNS rebinding between check
        and call); WebhookNotAllowed otherwise."""
        host, port = _host_and_port(url)
        addresses = [canonical(ip) for ip in self._addresses(host, port)]
        if not addresses or not all(allowed(ip, self.allow) for ip in addresses):
            raise WebhookNotAllowed(
                "the webhook's host must resolve to public addresses only, or into a "
                "network the operator allowed (KELTIS_WEBHOOK_ALLOW)"
            )
        if port in self.closed_ports and not all(is_public(ip) for ip in addresses):
            raise WebhookNotAllowed("a webhook may not call the service's own ports")
        parts = urlsplit(url)
        path = parts.path or "/"
        if parts.query:
            path = f"{path}?{parts.query}"
        return Target(parts.scheme, host, port, str(addresses[0]), path)

    def _addresses(self, host: str, port: int) -> list[Address]:
        literal = _literal(host)
        if literal is not None:
            return [literal]
        future = _resolvers().submit(self.resolve, host, port)
        try:
            found = future.result(timeout=self.timeout_s)
        except FutureTimeout:
            raise WebhookNotAllowed("the webhook's host did not resolve in time") from None
        except (OSError, UnicodeError):
            raise WebhookNotAllowed("the webhook's host does not resolve") from None
        try:  # a zone id (`%eth0`) only comes with link-local addresses: never public
            return [ipaddress.ip_address(address) for address in found]
        except ValueError:
            raise WebhookNotAllowed("the webhook's host resolves to odd addresses") from None


def _literal(host: str) -> Address | None:
    """The IP address `host` spells canonically, None for a DNS name; WebhookNotAllowed
    for any other spelling of a number (`127.1`, `2130706433`, `0x7f000001`, a zone id)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
    if "%" in host or ":" in host or NUMERIC_LABEL.match(labels[-1]):
        raise WebhookNotAllowed("an IP address in a webhook URL is written canonically")
    if len(host) > 253 or not all(LABEL.match(label) for label in labels):
        raise WebhookNotAllowed("the webhook's host is not a valid name")
    return None


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
    if not URL_PATH.match(parts.path) or not URL_QUERY.match(parts.query) or "#" in url:
        raise WebhookNotAllowed(
            "a webhook URL's path and query are letters, digits, `-._~/`, percent-escapes "
            "and `=&` (in the query), without a fragment"
        )
    return parts.hostname, port or (443 if parts.scheme == "https" else 80)
