"""Pick free TCP ports on the loopback interface."""

from __future__ import annotations

import random
import socket

LOOPBACK = "127.0.0.1"
CLUSTER_BUS_OFFSET = 10000  # Redis 6.2 always puts a node's cluster bus on port + 10000
_LOW, _HIGH = 20000, 55000  # leaves room for the bus port, avoids well-known ports


class NoFreePort(RuntimeError):
    """No free loopback port was found in the allowed number of tries."""


def is_port_free(port: int) -> bool:
    """True if a TCP socket can bind `port` on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((LOOPBACK, port))
        except OSError:
            return False
    return True


def pick_free_port(*, with_cluster_bus: bool = False, tries: int = 200) -> int:
    """A loopback port that is free now (and its cluster bus port too, if asked).

    Another process may still take it before Redis binds it: callers retry on
    "Address already in use".
    """
    for _ in range(tries):
        port = random.randint(_LOW, _HIGH)
        if is_port_free(port) and (not with_cluster_bus or is_port_free(port + CLUSTER_BUS_OFFSET)):
            return port
    raise NoFreePort(f"no free loopback port after {tries} tries")
