"""Pick free TCP ports on the loopback interface."""

from __future__ import annotations

import random
import socket

LOOPBACK = "127.0.0.1"
CLUSTER_BUS_OFFSET = 10000  # Redis 6.2 always puts a node's cluster bus on port + 10000
# Below the kernel's ephemeral range (32768 up), bus ports included: a client connecting to
# a port of that range where nothing listens yet (a server starting) can be handed that very
# port as its own and connect to itself (TCP simultaneous open), reading its own command back
# as the answer. Above tests.support.ports' ranges (12000-19999).
_LOW, _HIGH = 20000, 22700


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
