"""What a set of Redis servers did between two readings, summed over them (one INFO each):
round trips (read events on client connections), commands (INFO commandstats), bytes over
client connections, the server's CPU and memory used."""

from __future__ import annotations

from dataclasses import dataclass, fields

import redis

# The readings' own command, left out of the counts (its reply's bytes are not: a few KB).
OWN_COMMANDS = frozenset({"info"})


@dataclass(frozen=True)
class Traffic:
    """Totals over the servers at one reading; `later - earlier` is what happened between.

    `round_trips`: read events on client connections (`total_reads_processed`): a request
    and the commands pipelined with it arrive in one, a large one may take a few.
    `commands`: what INFO commandstats counts: each command of a pipeline or a transaction,
    a script's call and every command the script ran. `cpu_s`: the server's user + system
    CPU seconds (its background threads included)."""

    round_trips: int = 0
    commands: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    used_memory: int = 0
    cpu_s: float = 0.0

    def __sub__(self, earlier: Traffic) -> Traffic:
        return Traffic(*(getattr(self, f.name) - getattr(earlier, f.name) for f in fields(self)))

    def __add__(self, other: Traffic) -> Traffic:
        return Traffic(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def server_traffic(client: redis.Redis) -> Traffic:
    """One server's totals since its start, the readings' INFO (their reads and their
    commands) left out: a read is counted once the command it brought has run, an INFO's
    call too, so each earlier INFO is one read and one call."""
    info = client.info("everything")
    calls = {name: int(row["calls"]) for name, row in info.items() if name.startswith("cmdstat_")}
    own = sum(calls.get(f"cmdstat_{name}", 0) for name in OWN_COMMANDS)
    return Traffic(
        round_trips=int(info["total_reads_processed"]) - own,
        commands=sum(calls.values()) - own,
        bytes_in=int(info["total_net_input_bytes"]),
        bytes_out=int(info["total_net_output_bytes"]),
        used_memory=int(info["used_memory"]),
        cpu_s=float(info["used_cpu_user"]) + float(info["used_cpu_sys"]),
    )


def reading(clients: list[redis.Redis]) -> Traffic:
    """Totals over `clients`' servers now."""
    return total(server_traffic(client) for client in clients)


def total(readings) -> Traffic:
    """The sum of several servers' readings (or of their differences)."""
    summed = Traffic()
    for one in readings:
        summed = summed + one
    return summed
