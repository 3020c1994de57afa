"""A listening address as an operator writes it in a setting: "host:port"."""

from __future__ import annotations

ANY_HOST = frozenset({"0.0.0.0", "::", ""})  # a bind on every interface


def parse_bind(bind: str) -> tuple[str, int]:
    """("host", port) of "host:port" (IPv6 in brackets: "[::1]:9100"; port 0: any free
    port); ValueError else."""
    host, sep, port = bind.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"expected HOST:PORT, got {bind!r}")
    return host.strip("[]"), int(port)


def same_listener(bind: tuple[str, int], local: tuple) -> bool:
    """Whether a connection whose local address is `local` (a socket's getsockname())
    arrived on the listener bound to `bind`."""
    host, port = bind
    return local[1] == port and (host in ANY_HOST or local[0] == host)
