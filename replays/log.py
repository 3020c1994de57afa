"""Reading one game's stored log (docs/DESIGN.md): service entries, opening, command batches."""

from __future__ import annotations

import json
from dataclasses import dataclass

from gamelog.entries import READABLE_FORMATS, to_dict
from gamelog.events import (
    GAME_CREATED,
    GAME_ENDED_EARLY,
    IN_PLAY_EVENTS,
    SEAT_FORFEITED,
    SEAT_JOINED,
    SERVICE_EVENTS,
    TURN_TIMED_OUT,
)
from replays.errors import MalformedLog

KNOWN_ENTRY_VERSIONS = READABLE_FORMATS
ENTRY_KEYS = ("v", "n", "at", "by", "e")


@dataclass(frozen=True)
class Batch:
    """Consecutive entries caused by one command (or, for the opening, by the service)."""

    by: int | None
    cmd: dict | None
    entries: tuple[dict, ...]
    service: tuple[dict, ...] = ()  # in-play service entries just before it (a timeout...)

    @property
    def n(self) -> int:
        """Version number of the batch's first entry."""
        return self.entries[0]["n"]

    @property
    def events(self) -> list[dict]:
        """The batch's events, in order."""
        return [entry["e"] for entry in self.entries]


@dataclass(frozen=True)
class GameLog:
    """One game's log, split into the parts the replay tools need."""

    entries: tuple[dict, ...]
    created: dict
    players: tuple[dict, ...]
    opening: Batch | None
    turns: tuple[Batch, ...]
    closing: tuple[dict, ...] = ()  # in-play service entries after the last command

    @property
    def ended_early(self) -> str | None:
        """Why the game ended before its rules' end (`game_ended_early`), or None."""
        for entry in self.closing:
            if entry["e"]["type"] == GAME_ENDED_EARLY:
                return entry["e"].get("reason", "forfeit")
        return None

    @property
    def forfeited(self) -> list[int]:
        """The seats that forfeited, in order."""
        batches = list(self.turns)
        entries = [entry for batch in batches for entry in batch.service] + list(self.closing)
        return [e["e"]["seat"] for e in entries if e["e"]["type"] == SEAT_FORFEITED]

    @property
    def rated(self) -> bool:
        """Whether the game was created rated (its result then needs every seat's own move)."""
        return bool(self.created.get("rated"))

    @property
    def aborts(self) -> bool:
        """Whether the game was created to abort as a rated one does (`aborts`: a two-board
        match's first game); a log from before it has no such field and reads False."""
        return bool(self.created.get("aborts"))

    @property
    def moved(self) -> frozenset[int]:
        """The seats that made a move of their own, as gamelog.record folds them: not the
        fallback's move right after a timeout, nor a move made for a seat that forfeited."""
        moved: set[int] = set()
        forfeited: set[int] = set()
        for batch in self.turns:
            events = [entry["e"] for entry in batch.service]
            forfeited.update(e["seat"] for e in events if e["type"] == SEAT_FORFEITED)
            if all(e["type"] != TURN_TIMED_OUT for e in events) and batch.by not in forfeited:
                moved.add(batch.by)
        return frozenset(moved)

    @property
    def game(self) -> str:
        """The game's name (`keltis-card`, `keltis-dice`)."""
        return self.created["game"]

    @property
    def rule_events(self) -> list[dict]:
        """Every event the rules fold: the opening and every turn's events."""
        batches = ([self.opening] if self.opening else []) + list(self.turns)
        return [event for batch in batches for event in batch.events]


def parse_log(entries) -> GameLog:
    """Split stored entries (decoded dicts, entry 1 first); raises MalformedLog."""
    if not isinstance(entries, list | tuple) or not entries:
        raise MalformedLog("the log has no entries")
    for position, entry in enumerate(entries, start=1):
        _check_entry(entry, position)
    created = entries[0]["e"]
    if created["type"] != GAME_CREATED:
        raise MalformedLog(f"entry 1 is {created['type']!r}, not {GAME_CREATED!r}", n=1)
    players = _initial_players(created)
    index = 1
    while index < len(entries) and entries[index]["e"]["type"] in SERVICE_EVENTS:
        _apply_service_event(players, entries[index])
        index += 1
    opening = []
    while (
        index < len(entries)
        and "cmd" not in entries[index]
        and entries[index]["e"]["type"] not in IN_PLAY_EVENTS
    ):
        opening.append(entries[index])
        index += 1
    turns: list[list[dict]] = []
    services: list[tuple[dict, ...]] = []
    pending: list[dict] = []
    for entry in entries[index:]:
        kind = entry["e"]["type"]
        if kind in IN_PLAY_EVENTS:
            _check_in_play(entry, len(players), bool(opening))
            pending.append(entry)
        elif kind in SERVICE_EVENTS:
            raise MalformedLog(f"service event {kind!r} after the start", entry["n"])
        elif "cmd" in entry:
            turns.append([entry])
            services.append(tuple(pending))
            pending = []
        elif pending or not turns:
            raise MalformedLog(f"entry {entry['n']}: an event without its command", entry["n"])
        else:
            turns[-1].append(entry)
    if opening:
        _check_batch(opening, None)
    for batch in turns:
        _check_batch(batch, batch[0]["by"])
    return GameLog(
        entries=tuple(entries),
        created=created,
        players=tuple(players),
        opening=Batch(None, None, tuple(opening)) if opening else None,
        turns=tuple(
            Batch(batch[0]["by"], batch[0]["cmd"], tuple(batch), service)
            for batch, service in zip(turns, services, strict=True)
        ),
        closing=tuple(pending),
    )


def _check_in_play(entry: dict, seats: int, started: bool) -> None:
    """A timeout, forfeit or early end: by the service, after the start, naming a seat."""
    kind, event = entry["e"]["type"], entry["e"]
    if not started:
        raise MalformedLog(f"{kind} before the game started", entry["n"])
    if entry["by"] is not None or "cmd" in entry:
        raise MalformedLog(
            f"entry {entry['n']}: {kind} is the service's, without a command", entry["n"]
        )
    if kind in (TURN_TIMED_OUT, SEAT_FORFEITED):
        seat = event.get("seat")
        if type(seat) is not int or not 0 <= seat < seats:
            raise MalformedLog(f"{kind} names no seat of this game: {seat!r}", entry["n"])


def entry_dict(entry) -> dict:
    """One stored entry as a dict: accepts the decoded dict, its raw JSON (str or bytes), or
    an object with `n`, `at`, `by`, `event` and `cmd` attributes (gamelog.entries.Entry)."""
    if isinstance(entry, str | bytes | bytearray):
        try:
            return json.loads(entry)
        except ValueError as error:
            raise MalformedLog(f"a stored entry is not JSON: {error}") from None
    if isinstance(entry, dict) or not hasattr(entry, "event"):
        return entry
    return to_dict(entry)


def _check_entry(entry, position: int) -> None:
    if not isinstance(entry, dict):
        raise MalformedLog(f"entry {position} is not an object", position)
    missing = [key for key in ENTRY_KEYS if key not in entry]
    if missing:
        raise MalformedLog(f"entry {position} lacks {', '.join(missing)}", position)
    if type(entry["at"]) is not int or entry["at"] < 0:
        raise MalformedLog(f"entry {position}: at is not a time in ms", position)
    if entry["by"] is not None and type(entry["by"]) is not int:
        raise MalformedLog(f"entry {position}: by is neither a seat nor null", position)
    if type(entry["v"]) is not int or entry["v"] not in KNOWN_ENTRY_VERSIONS:
        raise MalformedLog(f"entry {position} has unknown entry version {entry['v']!r}", position)
    if type(entry["n"]) is not int or entry["n"] != position:
        raise MalformedLog(f"entry at position {position} has n={entry['n']!r}", position)
    event = entry["e"]
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise MalformedLog(f"entry {position}: the event has no type", position)
    if "cmd" in entry and not isinstance(entry["cmd"], dict):
        raise MalformedLog(f"entry {position}: the command is not an object", position)


def _check_batch(batch: list[dict], by) -> None:
    """Entries of one batch share the acting seat and the time (the opening: no seat)."""
    for entry in batch:
        if entry["by"] != by:
            raise MalformedLog(
                f"entry {entry['n']}: by={entry['by']!r}, its batch says {by!r}", entry["n"]
            )
        if entry["at"] != batch[0]["at"]:
            raise MalformedLog(f"entry {entry['n']}: its time differs from its batch's", entry["n"])


def _initial_players(created: dict) -> list[dict]:
    players = created.get("players")
    if not isinstance(players, list) or not players:
        raise MalformedLog("game_created lists no players", 1)
    if not all(isinstance(player, dict) for player in players):
        raise MalformedLog("game_created lists a player that is not an object", 1)
    return [
        {"seat": seat, "name": p.get("name"), "bot": p.get("bot")} for seat, p in enumerate(players)
    ]


def _apply_service_event(players: list[dict], entry: dict) -> None:
    event = entry["e"]
    if event["type"] == SEAT_JOINED:
        seat = event.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(players):
            raise MalformedLog(f"seat_joined names no seat of this game: {seat!r}", entry["n"])
        players[seat] = {**players[seat], "name": event.get("name"), "bot": event.get("bot")}
