"""Verify a replay (R3): shape, hash chain, seed commitment, and a full re-run of the rules.

The chain only shows that nothing changed since its final hash was published (a forger can
recompute it); re-running every command through the rules is what proves the game legal.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from domain.chance import Chance
from domain.errors import DomainError
from domain.game import FINISHED, GameRules, evolve_all
from gamelog.events import ENDED_ABORTED
from gamelog.names import name_problem
from gamelog.results import ending
from replays.bounds import check_bounds
from replays.build import FORMAT, FORMAT_VERSION, result_of, rules_of, rules_version
from replays.canonical import json_ready
from replays.chain import ALGORITHM, entry_hashes, header_hash
from replays.clocks import ClockCheck, ClockFault, created_with_clock
from replays.diff import first_difference
from replays.errors import MalformedLog, MalformedReplay, ReplayError
from replays.log import SEAT_JOINED, SERVICE_EVENTS, GameLog, parse_log
from replays.shown import holds_unshown, one_line, quote

KNOWN_FORMAT_VERSIONS = frozenset({FORMAT_VERSION})
REQUIRED_KEYS = ("header", "seed", "seed_sha256", "entries", "result", "chain")
HEADER_KEYS = ("game_id", "game", "rules_version", "options", "players")
SEED_HEX = re.compile(r"^[0-9a-f]{64}$")
GAME_ID_MAX_LENGTH = 100
MAX_ENTRIES = 5_000  # a 4-player game logs about 200 to 320 entries


@dataclass(frozen=True)
class Report:
    """The outcome of a verification: `ok`, and a one-line `message` naming the first fault
    (`check` is its kind, `n` the entry it concerns) or summing up the verified game."""

    ok: bool
    message: str
    check: str = "all"
    n: int | None = None

    def line(self) -> str:
        """One line for a terminal: control characters escaped, length bounded."""
        if self.ok:
            return one_line(f"OK: {self.message}")
        where = f" (entry n={self.n})" if self.n is not None else ""
        return one_line(f"FAILED [{self.check}]{where}: {self.message}")


class _Failure(ReplayError):
    def __init__(self, check: str, message: str, n: int | None = None):
        super().__init__(message, n)
        self.check = check


def verify(replay, rules: GameRules | None = None) -> Report:
    """Check a decoded replay; never raises for a bad replay, returns a failed Report."""
    try:
        check_shape(replay)
        check_chain(replay)
        log = _parse(replay["entries"])
        check_names(log)
        rules = rules or _rules(log.game)
        check_header(replay, log, rules)
        chance = check_seed(replay, log)
        commands = rerun(replay, log, rules, chance)
    except MalformedReplay as error:
        return Report(False, error.message, "format", error.n)
    except _Failure as error:
        return Report(False, error.message, error.check, error.n)
    except ClockFault as error:
        return Report(False, error.message, "clock", error.n)
    return Report(True, _summary(replay, log, commands))


def check_shape(replay) -> None:
    """Format name, version and the keys every replay has; raises MalformedReplay."""
    if not isinstance(replay, dict):
        raise MalformedReplay("a replay is a JSON object")
    if replay.get("format") != FORMAT:
        raise MalformedReplay(f"not a {FORMAT} file (format is {quote(replay.get('format'))})")
    version = replay.get("format_version")
    if type(version) is not int or version not in KNOWN_FORMAT_VERSIONS:
        known = ", ".join(str(v) for v in sorted(KNOWN_FORMAT_VERSIONS))
        raise MalformedReplay(
            f"format_version {quote(version)} is not one this tool reads ({known})"
        )
    check_bounds(replay)
    missing = [key for key in REQUIRED_KEYS if key not in replay]
    if missing:
        raise MalformedReplay(f"missing key(s): {', '.join(missing)}")
    header = replay["header"]
    if not isinstance(header, dict):
        raise MalformedReplay("header is not an object")
    missing = [key for key in HEADER_KEYS if key not in header]
    if missing:
        raise MalformedReplay(f"header misses: {', '.join(missing)}")
    game_id = header["game_id"]
    if not isinstance(game_id, str) or not 1 <= len(game_id) <= GAME_ID_MAX_LENGTH:
        raise MalformedReplay(
            f"header game_id is not a text of 1 to {GAME_ID_MAX_LENGTH} characters"
        )
    if holds_unshown(game_id):
        raise MalformedReplay(f"header game_id {quote(game_id)} holds characters not to be shown")
    if not isinstance(replay["entries"], list) or not replay["entries"]:
        raise MalformedReplay("entries is not a non-empty list")
    if len(replay["entries"]) > MAX_ENTRIES:
        raise MalformedReplay(f"more than {MAX_ENTRIES} entries, the most a replay may have")
    chain = replay["chain"]
    if (
        not isinstance(chain, dict)
        or not isinstance(chain.get("h0"), str)
        or not isinstance(chain.get("entries"), list)
        or not isinstance(chain.get("final"), str)
    ):
        raise MalformedReplay("chain needs h0, entries (a list) and final")
    if chain.get("algorithm") != ALGORITHM:
        raise MalformedReplay(
            f"chain algorithm {quote(chain.get('algorithm'))} is not {ALGORITHM!r}"
        )


def check_chain(replay: dict) -> None:
    """Recompute h_0..h_N and name the first entry whose hash differs from the stored one."""
    chain = replay["chain"]
    h0 = header_hash(replay)
    if h0 != chain["h0"]:
        raise _Failure(
            "chain", "the header part (header, seed, seed_sha256, result) was changed: h0 differs"
        )
    entries = replay["entries"]
    hashes = entry_hashes(h0, entries)
    stored = chain["entries"]
    for position, (computed, recorded) in enumerate(zip(hashes, stored, strict=False), 1):
        if computed != recorded:
            stated = _entry_n(entries[position - 1], position)
            label = (
                f"n={position}" if stated == position else f"n={position}, which says n={stated}"
            )
            raise _Failure(
                "chain",
                f"entry {label} does not match its chain hash: it or its place was changed "
                "(edited, reordered, inserted or deleted)",
                position,
            )
    if len(hashes) != len(stored):
        position = min(len(hashes), len(stored)) + 1
        raise _Failure(
            "chain",
            f"{len(entries)} entries but {len(stored)} chain hashes: entries were added or "
            f"deleted from position {position} on",
            position,
        )
    if hashes[-1] != chain["final"]:
        raise _Failure("chain", "the final hash differs from the last entry's hash")


def check_names(log: GameLog) -> None:
    """Every seat's name (and bot) must be one the API accepts (replays.names); the failure
    names the entry that gave the seat its name."""
    sources = {}
    for entry in log.entries[1:]:
        if entry["e"]["type"] not in SERVICE_EVENTS:
            break
        if entry["e"]["type"] == SEAT_JOINED:
            sources[entry["e"].get("seat")] = entry["n"]
    for seat, player in enumerate(log.players):
        for field in ("name", "bot"):
            value = player[field]
            problem = None if field == "bot" and value is None else name_problem(value)
            if problem:
                raise _Failure(
                    "names", f"seat {seat}'s {field} {quote(value)} {problem}", sources.get(seat, 1)
                )


def check_header(replay: dict, log: GameLog, rules: GameRules) -> None:
    """The header must say what the log says."""
    header = replay["header"]
    entries = replay["entries"]
    expected = {
        "game": log.game,
        "rules_version": rules_version(rules),
        "options": log.created.get("options", {}),
        "players": json_ready(list(log.players)),
        "created_at": entries[0]["at"],
        "started_at": log.opening.entries[0]["at"] if log.opening else None,
        "ended_at": entries[-1]["at"],
        "entry_count": len(entries),
    }
    for key, value in expected.items():
        if header.get(key) != value:
            raise _Failure(
                "header",
                f"header {key} is {quote(header.get(key))} but the log says {quote(value)}",
            )


def check_seed(replay: dict, log: GameLog) -> Chance:
    """The revealed seed must be the one committed to at creation; returns its Chance."""
    seed = replay["seed"]
    if not isinstance(seed, str) or not SEED_HEX.match(seed):
        raise _Failure("seed", "the seed is not 64 lowercase hex digits")
    digest = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    if digest != replay["seed_sha256"]:
        raise _Failure("seed", "the seed's SHA-256 is not the recorded seed_sha256")
    if log.created.get("seed_sha256") != digest:
        raise _Failure("seed", "the seed does not match game_created's commitment", 1)
    hidden = log.created.get("hidden")
    if not isinstance(hidden, dict) or hidden.get("seed") != seed:
        raise _Failure("seed", "the seed differs from the one game_created reveals", 1)
    return Chance.from_hex(seed)


def rerun(replay: dict, log: GameLog, rules: GameRules, chance: Chance) -> int:
    """Re-derive the opening, re-decide every command, recompute the result.
    Returns the number of commands."""
    state = _check_opening(log, rules, chance)
    game_id, seats = replay["header"]["game_id"], len(log.players)
    clock = ClockCheck(rules, created_with_clock(log), game_id, replay["seed"], seats)
    for batch in log.turns:
        clock.service(batch.service, state)
        if rules.phase(state) == FINISHED:
            raise _Failure("turn", "a command after the game was over", batch.n)
        clock.check_move(batch, state)
        try:
            produced = json_ready(rules.decide(state, batch.by, batch.cmd, chance))
        except DomainError as error:
            rule = f" (rule {error.rule})" if error.rule else ""
            raise _Failure(
                "turn",
                f"the rules reject seat {batch.by}'s command {quote(batch.cmd)}{rule}: "
                f"{error.message}",
                batch.n,
            ) from None
        except Exception as error:
            raise _Failure(
                "turn", f"the rules cannot run command {quote(batch.cmd)}: {quote(error)}", batch.n
            ) from None
        _compare_events(batch.entries, produced, f"seat {batch.by}'s command {quote(batch.cmd)}")
        state = evolve_all(rules.evolve, state, batch.events)
    clock.service(log.closing, state)
    if rules.phase(state) != FINISHED and not clock.ended:
        raise _Failure("result", "the log ends before the game is over")
    result = json_ready(result_of(log, rules, state))
    difference = first_difference(result, replay["result"])
    if difference and result.get("ended") == ENDED_ABORTED:  # exported before aborts showed
        legacy = json_ready(result_of(log, rules, state, aborts=False))
        difference = first_difference(legacy, replay["result"])
    if difference:
        raise _Failure("result", f"the recorded result differs from the rules' result {difference}")
    return len(log.turns)


def _check_opening(log: GameLog, rules: GameRules, chance: Chance):
    if log.opening is None:
        raise _Failure("opening", "the log has no opening events: the game never started")
    try:
        options = rules.normalize_options(log.created.get("options", {}))
        produced = json_ready(rules.start(len(log.players), options, chance))
    except DomainError as error:
        raise _Failure("opening", f"the rules refuse to start: {error.message}", 1) from None
    except Exception as error:
        raise _Failure("opening", f"the rules cannot start this game: {quote(error)}", 1) from None
    _compare_events(log.opening.entries, produced, "the opening (shuffle, deal, first roll)")
    return rules.fold(log.opening.events)


def _compare_events(entries, produced: list[dict], cause: str) -> None:
    for index, entry in enumerate(entries):
        if index >= len(produced):
            raise _Failure(
                "event",
                f"event {quote(entry['e'].get('type'))} is logged, but {cause} produces only "
                f"{len(produced)} event(s)",
                entry["n"],
            )
        difference = first_difference(produced[index], entry["e"])
        if difference:
            raise _Failure(
                "event",
                f"event {quote(entry['e'].get('type'))} differs from what {cause} produces "
                f"{difference} (expected = rules, found = log)",
                entry["n"],
            )
    if len(produced) > len(entries):
        missing = produced[len(entries)]
        last = entries[-1]["n"] if entries else None
        raise _Failure(
            "event",
            f"{cause} also produces {quote(missing.get('type'))}, which the log lacks after "
            f"n={last}",
            last,
        )


def _parse(entries) -> GameLog:
    try:
        return parse_log(entries)
    except MalformedLog as error:
        raise _Failure("log", error.message, error.n) from None


def _rules(game: str) -> GameRules:
    try:
        return rules_of(game)
    except MalformedLog as error:
        raise _Failure("header", error.message) from None


def _entry_n(entry, position: int):
    return entry.get("n", position) if isinstance(entry, dict) else position


def _summary(replay: dict, log: GameLog, commands: int) -> str:
    header = replay["header"]
    names = ", ".join(str(p.get("name")) for p in log.players)
    result = replay["result"] or {}
    scores = result.get("scores") or []
    winners = ", ".join(
        f"{log.players[seat].get('name')} ({scores[seat] if seat < len(scores) else '?'})"
        for seat in result.get("winners") or []
    )
    return (
        f"{header['game']} game {header['game_id']}: {len(log.players)} players ({names}), "
        f"{len(replay['entries'])} entries, {commands} commands re-run by the rules, "
        f"seed matches its commitment, ended by {_ending(result)}, scores {scores}, "
        f"{f'won by {winners}' if winners else 'no winner'}; "
        f"final hash {replay['chain']['final']}"
    )


def _ending(result: dict) -> str:
    """Why the game ended: the rule's end it names (E6, F6), or why it ended early."""
    return str(ending(result) or "the rules")
