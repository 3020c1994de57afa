"""The append-only event store: one Redis list per game, appended by one Lua script; a
finished game's list may be compacted into one blob (store.games.packing), read the same way, and
that blob may move on to the archive tier (store.archive.tier): a game Redis holds no log of is
looked up there, so every read serves an archived game as it served it from Redis."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import orjson
import redis

from gamelog import snapshot
from gamelog.entries import Entry, decode, encode
from gamelog.record import GameRecord
from store import keys
from store.archive.tier import ArchiveStore, archive_from_env
from store.core.codec import text
from store.core.roundtrip import Batch
from store.core.scripts import load_script
from store.games import packing

# The entries a cold read fetches with the stored snapshot: enough to hold the snapshot's
# own entry (its version is at most EVERY plus one batch behind the log's end).
SNAPSHOT_WINDOW = 2 * snapshot.EVERY


class AppendStatus(StrEnum):
    """What became of an append."""

    OK = "ok"  # appended: `version` is the new version
    CONFLICT = "conflict"  # the log was not at the expected version: `version` is current
    DUPLICATE = "dup"  # the idempotency field was used before: `first_answer`
    UNAUTHORIZED = "unauthorized"  # the checked seat's token hash did not match


# The script's status replies as redis-py returns them (bytes), without the enum's lookup.
_STATUS_OF_REPLY = {status.value.encode(): status for status in AppendStatus}


@dataclass(frozen=True, slots=True)
class AppendRequest:
    """One atomic append to a game's log.

    `expected_version` is the log's length the batch follows. With `idempotency_field`, the
    first `answer` given under that field is recorded, and a repeat appends nothing.
    `new_token_hashes` (seat -> hash) are recorded with the batch; `token_check` (seat, hash)
    refuses the append unless that seat's stored hash is the given one.
    """

    game_id: str
    expected_version: int
    entries: list[Entry]
    idempotency_field: str | None = None
    answer: dict | None = None
    new_token_hashes: dict[int, str] = field(default_factory=dict)
    token_check: tuple[int, str] | None = None


@dataclass(frozen=True, slots=True)
class AppendResult:
    """The outcome of an append (see AppendStatus)."""

    status: AppendStatus
    version: int | None = None
    first_answer: dict | None = None

    @property
    def ok(self) -> bool:
        return self.status is AppendStatus.OK


@dataclass(frozen=True, slots=True)
class LogRead:
    """What one load round trip returns: entries after a version (after `base`, when the
    read started from a stored snapshot of the game), token hashes, a prior answer, and the
    log's length (the current version)."""

    entries: list[Entry]
    token_hashes: dict[int, str]
    prior_answer: dict | None
    length: int = 0
    base: GameRecord | None = None


@dataclass(frozen=True, slots=True)
class _Replies:
    """The replies of one pipelined read of a game (EventStore._read)."""

    raws: list[bytes]
    hashes: dict
    length: int
    packed: bytes | None
    snapshot: bytes | None
    prior: bytes | None

    def from_packed(self, after: int, end: int | None) -> LogRead:
        """The LogRead of a compacted game's entries after..end: the blob is the log."""
        packed = packing.unpack(self.packed)
        return self.result(packed.entries[after:end], packed.version, packed.token_hashes)

    def result(
        self,
        raws: list[bytes],
        length: int,
        token_hashes: dict[int, str] | None = None,
        base: GameRecord | None = None,
    ) -> LogRead:
        """The LogRead of `raws` (decoded), with the stored token hashes unless given."""
        if token_hashes is None:
            token_hashes = {int(seat): text(h) for seat, h in self.hashes.items()}
        return LogRead(
            entries=[decode(raw) for raw in raws],
            token_hashes=dict(token_hashes),
            prior_answer=orjson.loads(self.prior) if self.prior else None,
            length=length,
            base=base,
        )


class EventStore:
    """Reads and appends the logs of games; never trims a log."""

    def __init__(self, client: redis.Redis, archive: ArchiveStore | None = None):
        self.client = client
        self.archive = archive if archive is not None else archive_from_env()
        self.append_script = client.register_script(load_script("append.lua"))

    def load(
        self,
        game_id: str,
        after: int = 0,
        idempotency_field: str | None = None,
        limit: int | None = None,
    ) -> LogRead:
        """Entries after version `after` (at most `limit`), token hashes, a recorded answer
        under `idempotency_field`, in one round trip."""
        stop = -1 if limit is None else after + limit - 1
        read = self._read(game_id, after, stop, idempotency_field)
        if read.packed is not None:
            return read.from_packed(after, None if limit is None else after + limit)
        return read.result(read.raws, read.length)

    def load_latest(self, game_id: str, idempotency_field: str | None = None) -> LogRead:
        """The game from scratch: its stored snapshot and the entries after it (or, without a
        usable snapshot, every entry), token hashes and a recorded answer; one round trip
        unless the game is longer than SNAPSHOT_WINDOW and has no usable snapshot."""
        read = self._read(game_id, -SNAPSHOT_WINDOW, -1, idempotency_field, with_snapshot=True)
        raws, length = read.raws, read.length
        if read.packed is not None:
            return read.from_packed(0, None)
        if len(raws) < length and read.snapshot is None:
            return self.load(game_id, 0, idempotency_field)
        first = length - len(raws) + 1  # the version of raws[0]
        found = snapshot.decode(read.snapshot)
        if found is not None and first <= found.record.version <= length:
            at = found.record.version - first
            if found.matches(raws[at]):
                return read.result(raws[at + 1 :], length, base=found.record)
        if first > 1:  # a window, not the whole log, and no snapshot in it
            return self.load(game_id, 0, idempotency_field)
        return read.result(raws, length)

    def _read(
        self,
        game_id: str,
        start: int,
        stop: int,
        idempotency_field: str | None,
        with_snapshot: bool = False,
    ) -> _Replies:
        """One pipelined read of a game: log entries start..stop, token hashes, the log's
        length, the compacted blob, the snapshot (if asked) and a recorded answer."""
        pipe = Batch(self.client)  # a read; the append re-checks
        pipe.lrange(keys.log(game_id), start, stop)
        pipe.hgetall(keys.tokens(game_id))
        pipe.llen(keys.log(game_id))
        pipe.get(keys.packed(game_id))
        if with_snapshot:
            pipe.get(keys.snapshot(game_id))
        if idempotency_field:
            pipe.hget(keys.idempotency(game_id), idempotency_field)
        replies = pipe.execute()
        packed = replies[3]
        if packed is None and replies[2] == 0:
            packed = self.archived(game_id)
        return _Replies(
            raws=replies[0],
            hashes=replies[1],
            length=replies[2],
            packed=packed,
            snapshot=replies[4] if with_snapshot else None,
            prior=replies[-1] if idempotency_field else None,
        )

    def raw_entries(self, game_id: str) -> list[bytes]:
        """Every entry of a game exactly as stored (from its list or its compacted blob)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.lrange(keys.log(game_id), 0, -1)
        pipe.get(keys.packed(game_id))
        raws, blob = pipe.execute()
        if blob is None and not raws:
            blob = self.archived(game_id)
        return packing.unpack(blob).entries if blob is not None else list(raws)

    def archived(self, game_id: str) -> bytes | None:
        """The compacted log of a game Redis holds nothing of, from the archive tier (None:
        no archive, or the game is not in it)."""
        return None if self.archive is None else self.archive.blob(game_id)

    def length(self, game_id: str) -> int:
        """The current version of a game (0 when it does not exist)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.llen(keys.log(game_id))
        pipe.getrange(keys.packed(game_id), 0, packing.HEAD_BYTES - 1)
        length, head = pipe.execute()
        if not length and not head:
            head = self.archived(game_id)
        packed = packing.version_of(head)
        return packed if packed is not None else length

    def token_hash(self, game_id: str, seat: int) -> str | None:
        """The stored token hash of one seat of a game (None: no such seat or game)."""
        found = self.client.hget(keys.tokens(game_id), str(seat))
        if found is None:
            blob = self.client.get(keys.packed(game_id)) or self.archived(game_id)
            return packing.unpack(blob).token_hashes.get(seat) if blob is not None else None
        return text(found)

    def append(self, request: AppendRequest, after: GameRecord | None = None) -> AppendResult:
        """Append a batch atomically if the log is still at its expected version (with the
        snapshot of `after`, the record the batch makes, when one is due)."""
        script_keys, args = self.script_call(request, after)
        return self.result_of(self.append_script(keys=script_keys, args=args))

    def script_call(
        self, request: AppendRequest, after: GameRecord | None = None
    ) -> tuple[list[str], list]:
        """The keys and arguments of the append script for `request` (store.games.commit sends it
        in a pipeline). `after`, the record the batch makes, is snapshotted with it when the
        batch crosses a snapshot version (gamelog.snapshot.due)."""
        check_seat, check_hash = request.token_check or ("", "")
        answer = b""
        if request.idempotency_field:
            answer = orjson.dumps(request.answer, option=orjson.OPT_NON_STR_KEYS)
        entries = [encode(entry) for entry in request.entries]
        stored_snapshot = b""
        if after is not None and snapshot.due(request.expected_version, after):
            stored_snapshot = snapshot.encode(after, entries[-1])
        args: list = [
            request.expected_version,
            request.idempotency_field or "",
            answer,
            check_seat,
            check_hash,
            len(entries),
            *entries,
            stored_snapshot,
        ]
        for seat, digest in request.new_token_hashes.items():
            args.extend((seat, digest))
        script_keys = [
            keys.log(request.game_id),
            keys.idempotency(request.game_id),
            keys.tokens(request.game_id),
            keys.packed(request.game_id),
            keys.snapshot(request.game_id),
        ]
        return script_keys, args

    @staticmethod
    def result_of(reply: list) -> AppendResult:
        """The AppendResult of the append script's reply."""
        status = _STATUS_OF_REPLY.get(reply[0]) or AppendStatus(text(reply[0]))
        if status is AppendStatus.DUPLICATE:
            return AppendResult(status, first_answer=orjson.loads(reply[1]))
        return AppendResult(status, version=int(reply[1]))
