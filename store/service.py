"""The application service shared by the API and the workers: create, join, play, read."""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import redis

from domain.chance import SEED_BYTES, Chance, seed_commitment
from domain.errors import GameOver, NotYourTurn
from domain.registry import game_names, get_rules
from domain.visibility import redact_event
from store import index, tokens
from store.botqueue import enqueue_bot_turn
from store.cache import RecordCache
from store.entries import Entry, make_batch
from store.errors import (
    CorruptLog,
    GameNotFound,
    GameNotStarted,
    IdempotencyKeyReused,
    InvalidPlayers,
    NoSuchSeat,
    SeatUnavailable,
    Unauthenticated,
    UnknownGame,
    VersionConflict,
    WrongGameToken,
)
from store.eventstore import EventStore, Gate, Rider
from store.record import GAME_CREATED, SEAT_JOINED, GameRecord, fold_entries

log = logging.getLogger(__name__)

GAME_ID_BYTES = 16  # 128 random bits, URL-safe
MAX_RETRIES = 8

# render(record_after, new_entries, seat) -> the JSON body answered to the caller.
Render = Callable[[GameRecord, list[Entry], int], dict]


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP-ready answer to a move: status and body (the first one, for a repeated key)."""

    status: int
    body: dict
    repeated: bool = False


class GameService:
    """Commands and queries over games stored in Redis."""

    def __init__(
        self,
        client: redis.Redis,
        cache: RecordCache | None = None,
        clock: Callable[[], int] = now_ms,
        enqueue_bots: bool = True,
        queue_client: redis.Redis | None = None,
    ):
        self.client = client
        self.queue_client = queue_client if queue_client is not None else client  # RQ's Redis
        self.store = EventStore(client)
        self.cache = cache if cache is not None else RecordCache()
        self.clock = clock
        self.enqueue_bots = enqueue_bots

    # ----- queries -------------------------------------------------------------------

    @staticmethod
    def rules_for(game: str):
        """The rules of a game by name; UnknownGame when there is none."""
        if game not in game_names():
            raise UnknownGame(f"unknown game {game!r}")
        return get_rules(game)

    def available_bots(self) -> dict[str, list[str]]:
        """Bot names per game."""
        return {name: sorted(get_rules(name).bots) for name in game_names()}

    def load(
        self, game_id: str, idempotency_field: str | None = None, rider: Rider | None = None
    ) -> tuple[GameRecord, dict[int, str], dict | None]:
        """The game at its newest version (one round trip), its token hashes, a prior answer.

        A `rider` sends its own commands in that round trip (EventStore.load).
        """
        cached = self.cache.get(game_id)
        after = cached.version if cached else 0
        snapshot = self.store.load(game_id, after, idempotency_field, rider=rider)
        if cached is not None and snapshot.length < cached.version:
            # The log is shorter than this process's copy: Redis lost its tail (a crash
            # without appendfsync always) or was restored from a backup. Re-read it all.
            self.cache.discard(game_id)
            return self.load(game_id, idempotency_field)
        if cached is None and not snapshot.entries:
            raise GameNotFound("no game with this id")
        record = fold_entries(cached, game_id, snapshot.entries) if snapshot.entries else cached
        self.cache.put(record)
        return record, snapshot.token_hashes, snapshot.prior_answer

    def seat_of(self, game_id: str, token: str | None, token_hashes: dict[int, str]) -> int | None:
        """The caller's seat from a bearer token (None without one).

        Unauthenticated for a token that matches no seat; WrongGameToken for a valid token
        of another game.
        """
        if token is None:
            return None
        claim = tokens.parse(token)
        if claim is None:
            raise Unauthenticated("the bearer token is not valid")
        if claim.game_id == game_id:
            if tokens.matches(claim, token_hashes.get(claim.seat)):
                return claim.seat
            raise Unauthenticated("the bearer token is not valid for this game")
        other = self.store.load(claim.game_id) if _looks_like_id(claim.game_id) else None
        if other is not None and tokens.matches(claim, other.token_hashes.get(claim.seat)):
            raise WrongGameToken("the bearer token belongs to another game")
        raise Unauthenticated("the bearer token is not valid")

    def entries_after(self, game_id: str, after: int, limit: int) -> list[Entry]:
        """Stored entries after version `after` (at most `limit`)."""
        return self.store.load(game_id, after, limit=limit).entries

    def wait_for_version(self, game_id: str, after: int, wait_s: float, poll_s: float = 0.05):
        """Block up to `wait_s` seconds until the game's version exceeds `after`."""
        deadline = time.monotonic() + wait_s
        while self.store.length(game_id) <= after and time.monotonic() < deadline:
            time.sleep(poll_s)

    @staticmethod
    def visible_entry(entry: Entry, viewer: int | None, revealed: bool) -> dict:
        """One entry as `viewer` may see it (R2)."""
        shown = {"version": entry.n, "at": entry.at, "by": entry.by}
        if entry.cmd is not None:
            shown["cmd"] = entry.cmd
        shown["event"] = redact_event(entry.event, viewer, revealed=revealed)
        return shown

    def list_games(self, status, game, offset, limit):
        return index.list_games(self.client, status, game, offset, limit)

    # ----- commands ------------------------------------------------------------------

    def create(
        self,
        game: str,
        players: list[dict],
        options: Mapping,
        game_id: str | None = None,
        seed: bytes | None = None,
    ) -> tuple[GameRecord, dict[int, str]]:
        """A new game; returns its record and a token for each named human seat.

        `game_id` and `seed` are random unless a trusted caller derives them (tournaments:
        bots-only games); VersionConflict when a game of that id exists already.
        """
        rules = self.rules_for(game)
        _check_players(rules, players)
        options = rules.normalize_options(options)
        game_id = game_id or secrets.token_urlsafe(GAME_ID_BYTES)
        seed = seed if seed is not None else secrets.token_bytes(SEED_BYTES)
        created = {
            "type": GAME_CREATED,
            "game": game,
            "options": options,
            "players": [_stored_player(p) for p in players],
            "seed_sha256": seed_commitment(seed),
            "hidden": {"seed": seed.hex()},
        }
        events = [created]
        if not any(p.get("open") for p in players):
            events += rules.start(len(players), options, Chance(seed))
        seat_tokens = {
            seat: tokens.new_token(game_id, seat)
            for seat, p in enumerate(players)
            if not p.get("open") and not p.get("bot")
        }
        batch = make_batch(1, events, self.clock(), None, None)
        record = fold_entries(None, game_id, batch)
        result = self._append(
            None,
            record,
            batch,
            token_hashes={s: tokens.digest(t) for s, t in seat_tokens.items()},
        )
        if result.status != "ok":
            raise VersionConflict("a game with this id already exists", result.version or 0)
        return record, seat_tokens

    def join(self, game_id: str, seat: int, name: str) -> tuple[GameRecord, str]:
        """Take an open seat; the game starts (same batch) when it was the last one."""
        for _ in range(MAX_RETRIES):
            record, _, _ = self.load(game_id)
            if not 0 <= seat < len(record.players):
                raise NoSuchSeat(f"this game has no seat {seat}")
            if not record.players[seat].get("open"):
                raise SeatUnavailable(f"seat {seat} is not open")
            events = [{"type": SEAT_JOINED, "seat": seat, "name": name}]
            if record.open_seats == [seat]:
                chance = Chance.from_hex(record.seed_hex)
                events += record.rules.start(len(record.players), record.options, chance)
            token = tokens.new_token(game_id, seat)
            batch = make_batch(record.version + 1, events, self.clock(), None, None)
            after = fold_entries(record, game_id, batch)
            result = self._append(record, after, batch, token_hashes={seat: tokens.digest(token)})
            if result.status == "ok":
                return after, token
        raise VersionConflict("the game is too busy; try again", record.version)

    def play(
        self,
        game_id: str,
        token: str | None,
        command: dict,
        render: Render,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        rider: Rider | None = None,
    ) -> Answer:
        """Apply one command of the token's seat; answer as `render` says (200).

        A `rider` rides along with the first load's round trip (EventStore.load).
        """
        claim = tokens.parse(token) if token else None
        field = None
        if idempotency_key is not None and claim is not None:
            field = f"{claim.seat}:{idempotency_key}"
        # Only a request with an Idempotency-Key needs its fingerprint (stored, compared).
        fingerprint = _fingerprint(command, expected_version) if field is not None else None
        if claim is not None and claim.game_id == game_id:
            answer, rider = self._play_on_cached(
                claim, command, render, expected_version, field, fingerprint, rider
            )
            if answer is not None:
                return answer
        for _ in range(MAX_RETRIES):
            record, token_hashes, prior = self.load(game_id, field, rider)
            rider = None
            seat = self.seat_of(game_id, token, token_hashes)
            if seat is None:
                raise Unauthenticated("a seat's bearer token is required")
            if prior is not None:
                return _repeat(prior, fingerprint)
            batch, after = self.decide(record, seat, command, expected_version)
            body = render(after, batch, seat)
            answer = {"fp": fingerprint, "status": 200, "body": body}
            result = self._append(record, after, batch, field, answer)
            if result.status == "dup":
                return _repeat(result.first_answer, fingerprint)
            if result.status == "ok":
                return Answer(200, body)
            if expected_version is not None:
                raise VersionConflict("the game has moved on", result.version)
        raise VersionConflict("the game is too busy; try again", result.version)

    def _play_on_cached(
        self,
        claim: tokens.TokenClaim,
        command: dict,
        render: Render,
        expected_version: int | None,
        field: str | None,
        fingerprint: str | None,
        rider: Rider | None,
    ) -> tuple[Answer | None, Rider | None]:
        """One round trip for a move when this process holds the game's newest version.

        The command is decided on the cached record and appended with the token's hash
        checked by the append script (and the rider's counter, if it has one, counted
        there). (None, rider still to send) when that is not possible or did not happen:
        the caller then loads the game and answers exactly as without this shortcut.
        """
        record = self.cache.get(claim.game_id)
        gate = rider.gate() if rider is not None else None
        if record is None or (rider is not None and gate is None):
            return None, rider
        try:
            batch, after = self.decide(record, claim.seat, command, expected_version)
        except Exception:  # a stale copy may refuse what the newest version accepts
            return None, rider
        body = render(after, batch, claim.seat)
        answer = {"fp": fingerprint, "status": 200, "body": body}
        result = self._append(
            record,
            after,
            batch,
            field,
            answer,
            token_check=(claim.seat, tokens.digest(claim.token)),
            gate=gate,
        )
        if rider is not None:
            rider.answer([result.count])  # raises when the counter refused the request
        if result.status == "ok":
            return Answer(200, body), None
        if result.status == "dup":
            return _repeat(result.first_answer, fingerprint), None
        return None, None

    def decide(
        self, record: GameRecord, seat: int, command: dict, expected_version: int | None = None
    ) -> tuple[list[Entry], GameRecord]:
        """The entries a command appends and the record after them; raises domain errors."""
        if record.finished:
            raise GameOver("the game is over")
        if not record.started:
            raise GameNotStarted("the game waits for players to join")
        if expected_version is not None and expected_version != record.version:
            raise VersionConflict("the game has moved on", record.version)
        if record.to_move != seat:
            raise NotYourTurn("it is not this seat's turn")
        chance = Chance.from_hex(record.seed_hex)
        events = record.rules.decide(record.state, seat, command, chance)
        batch = make_batch(record.version + 1, events, self.clock(), seat, dict(command))
        return batch, fold_entries(record, record.game_id, batch)

    def append_decided(
        self, record: GameRecord, batch: list[Entry], after: GameRecord, enqueue: bool = True
    ) -> bool:
        """Append a batch decided on `record` (used by bots); False when someone moved first."""
        return self._append(record, after, batch, enqueue=enqueue).status == "ok"

    def _append(
        self,
        before: GameRecord | None,
        after: GameRecord,
        batch: list[Entry],
        idempotency_field: str | None = None,
        answer: dict | None = None,
        token_hashes: dict[int, str] | None = None,
        enqueue: bool = True,
        token_check: tuple[int, str] | None = None,
        gate: Gate | None = None,
    ):
        """Append `batch` and write the index of `after` in the same round trip.

        When the append does not happen, the optimistic index write is repaired from the
        log. On success the new record is cached and a bot now to move is enqueued.
        """
        result = self.store.append(
            after.game_id,
            before.version if before is not None else 0,
            batch,
            idempotency_field,
            answer,
            token_hashes,
            also=lambda pipe: index.update(pipe, after, before),
            token_check=token_check,
            gate=gate,
        )
        if result.status != "ok":
            if result.status == "conflict" and before and result.version < before.version:
                self.cache.discard(after.game_id)  # the log lost its tail since the load
            self.refresh_index(self.load(after.game_id)[0])
            return result
        self.cache.put(after)
        if enqueue and self.enqueue_bots and after.bot_to_move() and not after.finished:
            enqueue_bot_turn(self.queue_client, after.game_id, after.version)
        return result

    def refresh_index(self, record: GameRecord) -> None:
        """Write the index entries of one game."""
        pipe = self.client.pipeline(transaction=False)
        index.update(pipe, record)
        pipe.execute()

    def rebuild_index(self) -> int:
        """Rewrite every index entry from the logs; returns the number of games."""
        from store import keys

        count = 0
        for key in self.client.scan_iter(match=keys.log_pattern(), count=500):
            key = key.decode() if isinstance(key, bytes) else key
            try:
                record, _, _ = self.load(keys.game_id_from_log_key(key))
            except CorruptLog as error:
                log.warning("index rebuild skips %s: %s", key, error.message)
                continue
            self.refresh_index(record)
            count += 1
        return count


def _looks_like_id(value: str) -> bool:
    from store.keys import GAME_ID_PATTERN

    return bool(GAME_ID_PATTERN.match(value))


def _check_players(rules, players: list[dict]) -> None:
    if not rules.min_players <= len(players) <= rules.max_players:
        raise InvalidPlayers(
            f"{rules.name} takes {rules.min_players} to {rules.max_players} players"
        )
    for seat, player in enumerate(players):
        bot = player.get("bot")
        if bot is not None and bot not in rules.bots:
            raise InvalidPlayers(f"seat {seat}: unknown bot {bot!r}")
        if player.get("open") and (player.get("name") or bot):
            raise InvalidPlayers(f"seat {seat}: an open seat has no name or bot")
        if not player.get("open") and not (player.get("name") or bot):
            raise InvalidPlayers(f"seat {seat}: a seat needs a name, a bot or open: true")


def _stored_player(player: dict) -> dict:
    if player.get("open"):
        return {"open": True}
    stored = {"name": player.get("name") or player["bot"]}
    if player.get("bot"):
        stored["bot"] = player["bot"]
    return stored


def _fingerprint(command: dict, expected_version: int | None) -> str:
    canonical = json.dumps([command, expected_version], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _repeat(prior: dict, fingerprint: str) -> Answer:
    if prior.get("fp") != fingerprint:
        raise IdempotencyKeyReused("this Idempotency-Key was used for another request")
    return Answer(prior["status"], prior["body"], repeated=True)
