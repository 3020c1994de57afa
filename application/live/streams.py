"""Live streams (pull): an account's turn events across its games, one game's events, and a
tournament's finished games.

Both work the same way: listen to the notification channel first (store.core.notify), catch up
from the log, then wake on each notification and read what changed. A notification is only a
hint: at each keep-alive the stream re-checks the log on its own, so a lost message costs
latency, never an event; between keep-alives an idle stream sends Redis nothing. A stream
yields `None` where a keep-alive line goes (also right after its catch-up when that had
nothing to say, so the response's headers go out at once), and ends after its lifetime
(`max_s`).

A stream opened with an account key (`credential`, application.accounts.credentials) also hears the
account's channel, re-checks the key at every wake-up and before every line it sends, and
ends once the key was replaced.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from application.accounts.credentials import NONE, Credential
from application.challenges.events import ChallengeWatch, wakes
from application.games.errors import GameNotFound
from application.games.service import GameService
from application.live.feeds import Page, feeds_of
from gamelog.record import GameRecord, Status
from store import keys
from store.accounts.records import AccountRecord
from store.challenges.records import ChallengeStore
from store.tournaments.records import TournamentStore
from tournaments.standings import entry_labels

KEEPALIVE_S = 10.0
MAX_S = 3600.0
PAGE = 200  # entries read at once by a game stream
MAX_GAMES = 500  # games in play an account stream catches up on
IN_PLAY = (Status.ACTIVE, Status.FINAL_ROUND)
OVER = (Status.FINISHED, Status.CANCELLED)


@dataclass(frozen=True, slots=True)
class StreamSettings:
    """Keep-alive interval (also the safety re-check) and lifetime."""

    keepalive_s: float = KEEPALIVE_S
    max_s: float = MAX_S


# ----- one game's events --------------------------------------------------------------------


def game_events(
    service: GameService,
    game_id: str,
    after: int,
    settings: StreamSettings,
    clock: Callable[[], float] = time.monotonic,
    credential: Credential = NONE,
) -> Iterator[Page | None]:
    """Pages of the game's entries after `after` with the record they belong to (the caller
    redacts them for its viewer; a page it shares with other streams keeps what the caller
    made of it, `Page.encoded`), `None` for a keep-alive; ends once the finished game's last
    entry was given, after `settings.max_s`, or once `credential` stopped working.

    Without an account key the stream follows the game's feed in this process
    (application.live.feeds: one subscription and one read per notification for all its
    streams); with one it listens on its own, also to the account's channel."""
    if credential.key_hash is None:
        return _followed(service, game_id, after, settings, clock)
    return _listened(service, game_id, after, settings, clock, credential)


def _log_pages(
    service: GameService, game_id: str, after: int, record: GameRecord
) -> Iterator[Page]:
    """The stored entries after `after` up to `record`'s version (or newer), page by page."""
    while record.version > after:
        entries = service.entries_after(game_id, after, PAGE)
        if not entries:
            return
        if entries[-1].n > record.version:
            record, _, _ = service.load(game_id)
        yield Page(after, entries, record)
        after = entries[-1].n


def _followed(
    service: GameService,
    game_id: str,
    after: int,
    settings: StreamSettings,
    clock: Callable[[], float],
) -> Iterator[Page | None]:
    ends = clock() + settings.max_s
    feeds = feeds_of(service)
    feed = feeds.join(game_id, settings.keepalive_s)
    try:
        cursor = feed.cursor()  # before the catch-up: whatever the feed reads next wakes us
        record, _, _ = service.load(game_id)
        opening = True
        for page in _log_pages(service, game_id, after, record):
            yield page
            opening, after, record = False, page.last, page.record
        page = None  # a held stream keeps nothing of its catch-up while it waits
        while True:
            if record.finished and after >= record.version:
                return
            if clock() >= ends:
                return
            if opening:  # nothing to catch up on: a keep-alive, so the headers go out now
                opening = False
                yield None
            cursor, ticked = feed.wait(cursor, ends - clock())  # a stream ends at its max_s
            pages = feed.pages_after(after)
            if pages is None:  # fell behind the feed's recent pages: from the log
                latest, _, _ = service.load(game_id)
                pages = list(_log_pages(service, game_id, after, latest))
            for page in pages:
                if page.entries:
                    yield page
                after, record = page.last, page.record
            if ticked and not pages:
                yield None
            pages = page = None
    finally:
        feeds.leave(feed, settings.keepalive_s)


def _listened(
    service: GameService,
    game_id: str,
    after: int,
    settings: StreamSettings,
    clock: Callable[[], float],
    credential: Credential,
) -> Iterator[Page | None]:
    ends = clock() + settings.max_s
    opening = True
    channels = (keys.game_channel(game_id), *credential.channels)
    with service.notices.listen(*channels) as listener:
        while True:
            record, _, _ = service.load(game_id)
            for page in _log_pages(service, game_id, after, record):
                if not credential.valid(service.accounts):
                    return
                yield page
                opening, after, record = False, page.last, page.record
            if record.finished and after >= record.version:
                return
            remaining = ends - clock()
            if remaining <= 0:
                return
            if opening:  # nothing to catch up on: a keep-alive, so the headers go out now
                opening = False
                if not credential.valid(service.accounts):  # replaced before we listened
                    return
                yield None
            woke = listener.wait(min(settings.keepalive_s, remaining))
            if not credential.valid(service.accounts):
                return
            if woke is None:
                yield None


# ----- an account's turns -------------------------------------------------------------------


@dataclass(slots=True)
class _Seen:
    status: str
    turn_version: int | None = None


@dataclass(slots=True)
class AccountWatch:
    """What an account stream told its client so far, per game."""

    name: str
    seen: dict[str, _Seen] = field(default_factory=dict)

    def in_play(self) -> list[str]:
        return [game for game, seen in self.seen.items() if seen.status in IN_PLAY]

    def changes(self, record: GameRecord, opening: bool = False) -> list[dict]:
        """The lines a game's newest version makes (`opening`: the stream's catch-up, which
        announces only the turns waiting)."""
        mine = [s for s, p in enumerate(record.players) if p.get("account") == self.name]
        if not mine:
            return []
        seen = self.seen.get(record.game_id)
        lines = []
        if record.status in IN_PLAY:
            if seen is None or seen.status not in IN_PLAY:
                if not opening:
                    lines.append({"type": "game_started", "game": record.game_id})
                seen = self.seen[record.game_id] = _Seen(record.status)
            seen.status = record.status
            if record.to_move in mine and seen.turn_version != record.version:
                seen.turn_version = record.version
                lines.append(
                    {
                        "type": "your_turn",
                        "game": record.game_id,
                        "version": record.version,
                        "deadline": record.deadline,
                    }
                )
        elif record.finished:
            if seen is None or seen.status not in OVER:
                lines.append({"type": "game_finished", "game": record.game_id})
            self.seen[record.game_id] = _Seen(record.status)
        elif seen is None:
            self.seen[record.game_id] = _Seen(record.status)
        return lines


def account_events(
    service: GameService,
    account: AccountRecord,
    settings: StreamSettings,
    clock: Callable[[], float] = time.monotonic,
    credential: Credential = NONE,
) -> Iterator[dict | None]:
    """The account's lines: first a `challenge` for every open challenge and a `your_turn`
    for every game waiting on it (or a keep-alive when none is), then `game_started`,
    `your_turn` and `game_finished` as its games move, and the challenge lines
    (application.challenges.events); `None` for a keep-alive. Ends after `settings.max_s`,
    or once `credential` (the key it was opened with) stopped working."""
    ends = clock() + settings.max_s
    watch = AccountWatch(account.name)
    challenges = ChallengeWatch(ChallengeStore(service.client), account.folded)
    with service.listen_account(account.name) as listener:
        opening = challenges.lines(service.clock(), opening=True)
        opening += [
            line
            for record in _playing(service, account)
            for line in watch.changes(record, opening=True)
        ]
        if not credential.valid(service.accounts):
            return
        yield from opening or [None]  # a keep-alive when nothing waits: headers go out now
        while True:
            remaining = ends - clock()
            if remaining <= 0:
                return
            woke = listener.wait(min(settings.keepalive_s, remaining))
            if not credential.valid(service.accounts):
                return
            if woke is None:
                yield None
            if wakes(woke):
                yield from challenges.lines(service.clock())
            if woke is None or None in woke:  # the safety re-check: every game in play
                records = _playing(service, account, watch.in_play())
            else:
                records = _records(service, dict.fromkeys(p.get("game") for p in woke))
            lines = [line for record in records for line in watch.changes(record)]
            if lines and not credential.valid(service.accounts):
                return
            yield from lines


def _playing(
    service: GameService, account: AccountRecord, also: list[str] = ()
) -> list[GameRecord]:
    """The account's games in play (from its index), and `also` (games the stream saw in
    play, which may have finished since)."""
    ids, _ = service.accounts.game_ids(account.name, True, None, MAX_GAMES)
    return _records(service, dict.fromkeys([*ids, *also]))


def _records(service: GameService, game_ids) -> list[GameRecord]:
    found = []
    for game_id in game_ids:
        if not isinstance(game_id, str):
            continue
        try:
            found.append(service.load(game_id)[0])
        except GameNotFound:
            continue
    return found


# ----- a tournament's finished games -----------------------------------------------------------


def tournament_events(
    service: GameService,
    tid: str,
    after: int,
    settings: StreamSettings,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[dict | None]:
    """One line per game of the tournament as it finishes, in the order the outcomes were
    recorded, from position `after` on (a reconnecting client passes the number of lines
    it has): `{"type": "game_finished", "position", "index", "game", "deal", "entries",
    "scores", "winners", "timeouts", "forfeited", "ranks", "progress"}` (`"ended"` for a game
    ended early; `game_cancelled` with `"void"` for a game cancelled alone); a duplicate
    deal's games come together once the whole deal is over, in index order; a last line
    `{"type": "tournament_finished" | "tournament_cancelled", "progress"}` ends the stream.
    `None` is a keep-alive; the stream also ends after `settings.max_s`."""
    store = TournamentStore(service.client)
    spec, _ = store.load(tid)
    labels = entry_labels(spec.bots)
    ends = clock() + settings.max_s
    with service.notices.listen(keys.tournament_channel(tid)) as listener:
        while True:
            for outcome in store.finished_since(tid, after):
                after += 1
                kind = "game_cancelled" if outcome.void else "game_finished"
                line = {"type": kind, "position": after, **outcome.to_dict()}
                line.pop("game_id")
                yield {
                    **line,
                    "game": outcome.game_id,
                    "entries": [labels[entry] for entry in outcome.entries],
                    "progress": {"done": after, "total": spec.games},
                }
            done = store.done(tid)
            if done >= spec.games or store.is_cancelled(tid):
                if after >= done:
                    kind = "tournament_finished" if done >= spec.games else "tournament_cancelled"
                    yield {"type": kind, "progress": {"done": done, "total": spec.games}}
                    return
                continue
            remaining = ends - clock()
            if remaining <= 0:
                return
            if listener.wait(min(settings.keepalive_s, remaining)) is None:
                yield None
