"""Who plays whom in the rated pool: tables of compatible seeks by rating, decided from data
(no Redis, no clock): application.seeks.worker_pass gathers the seeks, this module pairs them.

Rules, as lichess's pool and Battlesnake's arenas lead players to expect:
- A table seats seeks of one pool (same game, options, player count, clock, rated), each of
  another account and of another client address (`household`: one IPv4 address, one IPv6
  /64): an account is never paired with itself, nor with an account seeking from its
  address (one player's second account would farm rating off the first).
- Ratings are the ladder's ordinals (openskill mu - 3 sigma). A seek accepts opponents whose
  ordinal is within its range: `base_range` at first, widened by `widen_per_s` per second
  it has waited (up to `max_range`); two seeks sit together only if each accepts the other.
- The longest waiting seek is seated first, with the closest rating it accepts.
- Recent opponents (paired within the repeat window) are avoided: a repeat is taken only
  when no other seek of the pool waits that the table could take instead.
- 3- and 4-player seeks form tables of that size the same way, one seat at a time.
- A seek that waited `bot_wait_ms` without a table gets built-in bots (the operator's
  pool bots that the game has; by default the five levels), the closest rating first (a
  recent one only after an equally close one): a bot is never avoided for a repeat, since
  it cannot collude and the seeker's level matters more than variety.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import orjson

from domain.levels import level_names
from ladder.entries import participant_id

DEFAULT_BASE_RANGE = 3.0  # ordinal points accepted at once
DEFAULT_WIDEN_PER_S = 0.5  # ordinal points more per second waited
DEFAULT_REPEAT_WINDOW_S = 600.0
DEFAULT_BOT_WAIT_S = 5.0  # "Play now" seats its first game within 10 s on a fresh server
DEFAULT_POOL_BOTS = tuple(level_names())


@dataclass(frozen=True, slots=True)
class PairingRules:
    """The pool's settings (application.seeks.worker_pass reads them from the environment)."""

    base_range: float = DEFAULT_BASE_RANGE
    widen_per_s: float = DEFAULT_WIDEN_PER_S
    max_range: float | None = None
    pool_bots: tuple[str, ...] = ()
    bot_wait_ms: int = int(DEFAULT_BOT_WAIT_S * 1000)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A seek free to be seated now: its pool key, its account (folded) and name, its
    table size, its rating's ordinal, how long it waited (ms), its recent opponents, and
    the household of the client address it was placed from."""

    seek_id: str
    pool: tuple
    account: str
    name: str
    players: int
    ordinal: float
    waited_ms: int
    recent: frozenset[str] = field(default_factory=frozenset)
    household: str = ""

    @property
    def participant(self) -> str:
        return participant_id(self.name, bot=False)


@dataclass(frozen=True, slots=True)
class Table:
    """A table to create: its seeks, and built-in bots for the seats left (names)."""

    seeks: tuple[Candidate, ...]
    bots: tuple[str, ...] = ()


def pool_key(data: Mapping) -> tuple:
    """What two seeks (their stored data) must share to sit at one table."""
    return (
        data["game"],
        orjson.dumps(data["options"], option=orjson.OPT_SORT_KEYS),
        data["players"],
        orjson.dumps(data["clock"], option=orjson.OPT_SORT_KEYS),
        data["rated"],
    )


def household(address: str) -> str:
    """Who an address stands for at a table: an IPv4 address itself (an IPv4-mapped IPv6
    one too), an IPv6 address's /64 (one subscriber's usual share), anything else as
    written."""
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return str(found)


def accepted_range(candidate: Candidate, rules: PairingRules) -> float:
    """The ordinal distance the seek accepts after its wait."""
    widened = rules.base_range + rules.widen_per_s * candidate.waited_ms / 1000
    return widened if rules.max_range is None else min(widened, rules.max_range)


def _accept(a: Candidate, b: Candidate, rules: PairingRules) -> bool:
    distance = abs(a.ordinal - b.ordinal)
    return distance <= accepted_range(a, rules) and distance <= accepted_range(b, rules)


def _repeats(candidate: Candidate, table: Sequence[Candidate]) -> bool:
    return any(
        member.participant in candidate.recent or candidate.participant in member.recent
        for member in table
    )


def _order(candidates: Sequence[Candidate]) -> list[Candidate]:
    return sorted(candidates, key=lambda c: (-c.waited_ms, c.seek_id))


def tables(candidates: Sequence[Candidate], rules: PairingRules) -> list[Table]:
    """The tables of accounts' seeks this pass seats, the longest waiting first (each seek
    at one table at most)."""
    seated: set[str] = set()
    found = []
    ordered = _order(candidates)
    for anchor in ordered:
        if anchor.seek_id in seated:
            continue
        pool = [c for c in ordered if c.pool == anchor.pool and c.seek_id not in seated]
        table = _fill(anchor, pool, rules)
        if table is not None:
            found.append(Table(tuple(table)))
            seated.update(c.seek_id for c in table)
    return found


def _fill(anchor: Candidate, pool: list[Candidate], rules: PairingRules) -> list[Candidate] | None:
    table = [anchor]
    while len(table) < anchor.players:
        accounts = {member.account for member in table}
        households = {member.household for member in table} - {""}  # "": not known
        others = [c for c in pool if c.account not in accounts and c.household not in households]
        fitting = [c for c in others if all(_accept(c, m, rules) for m in table)]
        fresh = [c for c in fitting if not _repeats(c, table)]
        if fresh:
            choice = fresh
        elif fitting and not any(not _repeats(c, table) for c in others):
            choice = fitting  # a repeat, with no one else of the pool waiting
        else:
            return None
        mean = sum(m.ordinal for m in table) / len(table)
        table.append(min(choice, key=lambda c: (abs(c.ordinal - mean), -c.waited_ms, c.seek_id)))
    return table


def bot_tables(
    waiting: Sequence[Candidate],
    rules: PairingRules,
    bots_of_game: Mapping[tuple, Sequence[str]],
    bot_ordinals: Mapping[tuple[str, str], float],
) -> list[Table]:
    """Tables of one seek and built-in pool bots for each seek that waited `bot_wait_ms`
    without a table (`bots_of_game`: pool key -> the pool bots its game has; `bot_ordinals`:
    (game, bot name) -> its ordinal, unrated ones 0)."""
    found = []
    for candidate in _order(waiting):
        if candidate.waited_ms < rules.bot_wait_ms:
            continue
        chosen = bots_for(candidate, bots_of_game.get(candidate.pool, ()), bot_ordinals)
        if chosen:
            found.append(Table((candidate,), chosen))
    return found


def bots_for(
    candidate: Candidate, names: Sequence[str], bot_ordinals: Mapping[tuple[str, str], float]
) -> tuple[str, ...]:
    """The pool bots that would fill the seek's other seats (empty: none to offer), the
    closest in rating first; more seats than bots take them again in that order."""
    if not names:
        return ()

    def preference(name: str) -> tuple:
        distance = abs(bot_ordinals.get((candidate.pool[0], name), 0.0) - candidate.ordinal)
        return (distance, participant_id(name, bot=True) in candidate.recent, name)

    ordered = sorted(names, key=preference)
    return tuple(ordered[seat % len(ordered)] for seat in range(candidate.players - 1))
