"""`BotRunner`: plays an account's turns from its event stream, for as long as you let it.

It keeps `GET /v1/me/events` open (reconnecting with a growing, jittered backoff after a
drop; the stream's opening lines re-announce every turn waiting, so nothing is missed), and
for each `your_turn` fetches the view and the legal moves, calls `choose(view, legal_moves)`
and posts the move with the version it was chosen at (a stale version or another 409 is
logged, never fatal; a repeated `your_turn` for a version already played is ignored). At most
one turn per game is in flight, and at most `max_games_at_once` games are played at once.
Challenges are answered by `accept(challenge)` (True, or a decline reason), a seek is kept
open, and Ctrl-C (or SIGTERM, or `stop()`) ends it cleanly.
"""

from __future__ import annotations

import logging
import random
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import requests

from keltis_client.client import Client, EventStream
from keltis_client.errors import ApiError
from keltis_client.types import DECLINE_REASONS, Challenge, Event, Move, View

log = logging.getLogger("keltis_client.runner")

Choose = Callable[[View, list[Move]], Move | dict[str, Any]]
Accept = Callable[[Challenge], bool | str | None]
IN_PLAY = ("active", "final_round")


@dataclass(frozen=True, slots=True)
class SeekSpec:
    """The seek the runner keeps open (`POST /v1/seeks`'s body)."""

    game: str = "keltis-card"
    players: int = 2
    clock: dict[str, Any] | None = None
    rated: bool = True
    max_games: int = 1
    options: dict[str, Any] | None = None


@dataclass(slots=True)
class _Games:
    """Per game: the newest version moved at, and the turn waiting behind one in flight."""

    played: dict[str, int] = field(default_factory=dict)
    busy: dict[str, int | None] = field(default_factory=dict)


class BotRunner:
    """Runs `choose` for every turn of `client`'s account (see the module's docstring)."""

    def __init__(
        self,
        client: Client,
        choose: Choose,
        accept: Accept | None = None,
        seek: SeekSpec | None = None,
        max_games_at_once: int = 4,
        backoff_s: tuple[float, float] = (0.5, 30.0),
        read_timeout_s: float = 35.0,
        seek_check_s: float = 30.0,
    ):
        self.client, self.choose, self.accept, self.seek = client, choose, accept, seek
        self.max_games_at_once = max_games_at_once
        self.backoff_s, self.read_timeout_s, self.seek_check_s = (
            backoff_s,
            read_timeout_s,
            seek_check_s,
        )
        self.finished: list[str] = []
        self.moves_played = 0
        self.reconnects = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._games = _Games()
        self._answered: set[str] = set()
        self._stream: EventStream | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._seek_id: str | None = None
        self._seek_next = 0.0
        self._seeks_served = True
        self._until: int | None = None

    # ----- the loop ---------------------------------------------------------------------------

    def run(self, games: int | None = None) -> list[str]:
        """Play until `games` games have finished (None: until `stop()`, Ctrl-C or
        SIGTERM); the ids of the games finished meanwhile."""
        self._until = games
        self._pool = ThreadPoolExecutor(self.max_games_at_once, thread_name_prefix="keltis-turn")
        restore = _terminate_as_interrupt()
        try:
            self._follow()
        except KeyboardInterrupt:
            log.info("interrupted: stopping")
        finally:
            self._stop.set()
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._drop_seek()
            restore()
        return list(self.finished)

    def stop(self) -> None:
        """End `run()` soon (from any thread): the stream is closed, turns in flight end."""
        self._stop.set()
        stream = self._stream
        if stream is not None:
            stream.close()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def _follow(self) -> None:
        low, high = self.backoff_s
        backoff = low
        while not self._stop.is_set():
            opened = time.monotonic()
            try:
                self._stream = stream = self.client.events(self.read_timeout_s)
            except ApiError as error:
                if error.status in (401, 403):
                    raise  # the key was replaced: nothing a retry can fix
                backoff = self._pause(
                    f"the stream was refused ({error})", error.retry_after or backoff, high
                )
                continue
            except requests.RequestException as error:
                backoff = self._pause(f"cannot connect ({error})", backoff, high)
                continue
            log.info("event stream open")
            self._keep_seek(force=True)
            try:
                for line in stream:
                    if self._stop.is_set():
                        break
                    self._on(line)
            except Exception as error:  # a dropped connection, however urllib3 words it
                if self._stop.is_set():
                    break
                if time.monotonic() - opened > 10:
                    backoff = low
                self.reconnects += 1
                backoff = self._pause(f"the event stream dropped ({error!r})", backoff, high)
            else:
                if not self._stop.is_set():
                    self.reconnects += 1
                    log.info("the event stream ended; reconnecting")
            finally:
                self._stream = None
                stream.close()

    def _pause(self, why: str, backoff: float, high: float) -> float:
        wait = backoff * random.uniform(0.5, 1.0)
        log.warning("%s; reconnecting in %.1f s", why, wait)
        self._stop.wait(wait)
        return min(high, backoff * 2)

    def _on(self, line: Event | None) -> None:
        if line is None:  # a keep-alive
            self._keep_seek()
            return
        kind = line.get("type")
        if kind == "your_turn":
            self._turn(line["game"], int(line.get("version", 0)))
        elif kind == "game_started":
            log.info("game %s started", line.get("game"))
            self._keep_seek(force=True)
        elif kind == "game_finished":
            self._finished(line["game"])
        elif kind == "challenge":
            self._challenge(line.get("challenge") or {})
        elif kind and kind.startswith("challenge_"):
            challenge = line.get("challenge") or {}
            log.info("challenge %s: %s", challenge.get("id"), kind.removeprefix("challenge_"))

    def _finished(self, game: str) -> None:
        with self._lock:
            if game in self.finished:
                return
            self.finished.append(game)
            self._games.played.pop(game, None)
        log.info("game %s finished", game)
        if self._until is not None and len(self.finished) >= self._until:
            self.stop()  # no new seek: the pool could seat it before run() deletes it
            return
        self._keep_seek(force=True)

    # ----- turns ------------------------------------------------------------------------------

    def _turn(self, game: str, version: int) -> None:
        with self._lock:
            if self._games.played.get(game, -1) >= version:
                log.debug("game %s: version %s already played", game, version)
                return
            if game in self._games.busy:  # one turn per game at a time: run this one next
                waiting = self._games.busy[game]
                self._games.busy[game] = version if waiting is None else max(waiting, version)
                return
            self._games.busy[game] = None
        if self._pool is not None:
            self._pool.submit(self._turns_of, game, version)

    def _turns_of(self, game: str, version: int) -> None:
        while not self._stop.is_set():
            try:
                self._play(game)
            except Exception:
                log.exception("game %s: the turn at version %s failed", game, version)
            with self._lock:
                waiting = self._games.busy.get(game)
                if waiting is None or waiting <= self._games.played.get(game, -1):
                    self._games.busy.pop(game, None)
                    return
                self._games.busy[game] = None
                version = waiting
        with self._lock:
            self._games.busy.pop(game, None)

    def _play(self, game: str) -> None:
        for _ in range(3):  # the view and the moves must be of one version
            state = self.client.game(game)
            if state.get("status") not in IN_PLAY:
                return
            listed = self.client.legal_moves(game)
            if not listed["moves"]:
                return  # not (or no longer) this account's turn
            if listed["version"] == state.get("version"):
                break
        else:
            return
        version, seat = listed["version"], listed["seat"]
        with self._lock:
            if self._games.played.get(game, -1) >= version:
                return
        move = self._decide(game, state["view"], listed["moves"])
        try:
            self.client.move(game, move, expected_version=version, seat=seat)
        except ApiError as error:
            if error.status == 409:  # the game moved on (a clock, another process): fine
                log.info("game %s: move at version %s not taken (%s)", game, version, error.code)
            elif error.status == 422:
                log.error(
                    "game %s: %s refused (%s); playing %s", game, move, error, listed["moves"][0]
                )
                key = f"{game}.{version}.{seat}.fallback"
                try:
                    self.client.move(game, listed["moves"][0], version, key, seat)
                except ApiError as again:
                    log.warning("game %s: the fallback move failed too (%s)", game, again)
            else:
                raise
        else:
            self.moves_played += 1
        with self._lock:
            self._games.played[game] = max(version, self._games.played.get(game, -1))

    def _decide(self, game: str, view: View, moves: list[Move]) -> Move | dict[str, Any]:
        try:
            return self.choose(view, moves)
        except Exception:
            log.exception("game %s: choose() failed; playing the first legal move", game)
            return moves[0]

    # ----- challenges -------------------------------------------------------------------------

    def _challenge(self, challenge: Challenge) -> None:
        challenge_id = challenge.get("id")
        if not challenge_id or challenge.get("status", "open") != "open":
            return
        if challenge.get("challenger") == self.client.name:
            return  # our own, told back to us
        with self._lock:
            if challenge_id in self._answered:
                return
            self._answered.add(challenge_id)
        if self.accept is None:
            log.info(
                "challenge %s from %s: no accept policy, left open",
                challenge_id,
                challenge.get("challenger"),
            )
            return
        if self._pool is not None:
            self._pool.submit(self._answer, challenge)

    def _answer(self, challenge: Challenge) -> None:
        challenge_id = str(challenge.get("id"))
        try:
            verdict = self.accept(challenge) if self.accept else None
        except Exception:
            log.exception("challenge %s: accept() failed; declining", challenge_id)
            verdict = "generic"
        try:
            if verdict is True:
                self.client.accept_challenge(challenge_id)
                log.info("challenge %s from %s accepted", challenge_id, challenge.get("challenger"))
                return
            reason = (
                verdict if isinstance(verdict, str) and verdict in DECLINE_REASONS else "generic"
            )
            self.client.decline_challenge(challenge_id, reason)
            log.info("challenge %s declined (%s)", challenge_id, reason)
        except (ApiError, requests.RequestException) as error:
            log.warning("challenge %s: answer not taken (%s)", challenge_id, error)

    # ----- the seek ---------------------------------------------------------------------------

    def _keep_seek(self, force: bool = False) -> None:
        """Re-create the seek when it has ended (checked on connecting, after each game and
        every `seek_check_s` at a keep-alive)."""
        if self.seek is None or not self._seeks_served or self._stop.is_set():
            return
        now = time.monotonic()
        if not force and now < self._seek_next:
            return
        self._seek_next = now + self.seek_check_s
        try:
            mine = [s for s in self.client.seeks() if s.get("status", "open") == "open"]
            if any(s.get("id") == self._seek_id for s in mine):
                return
            same = [
                s
                for s in mine
                if s.get("game") == self.seek.game and s.get("players") == self.seek.players
            ]
            if same:  # one a previous run left open
                self._seek_id = same[0].get("id")
                return
            spec = asdict(self.seek)
            self._seek_id = self.client.create_seek(**spec).get("id")
            log.info(
                "seek %s open (%s, %s players)", self._seek_id, self.seek.game, self.seek.players
            )
        except ApiError as error:
            if error.status in (404, 405):
                self._seeks_served = False
                log.warning("this server takes no seeks (%s): not seeking", error)
            else:
                log.warning("could not keep the seek open (%s)", error)
        except requests.RequestException as error:
            log.warning("could not keep the seek open (%s)", error)

    def _drop_seek(self) -> None:
        if self._seek_id is None:
            return
        try:
            self.client.delete_seek(self._seek_id)
            log.info("seek %s deleted", self._seek_id)
        except (ApiError, requests.RequestException) as error:
            log.info("seek %s not deleted (%s)", self._seek_id, error)
        self._seek_id = None


def _terminate_as_interrupt() -> Callable[[], None]:
    """In the main thread, SIGTERM stops the runner like Ctrl-C; the restorer."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    return lambda: signal.signal(signal.SIGTERM, previous)
