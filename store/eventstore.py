"""The append-only event store: one Redis list per game, appended by one Lua script."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Protocol

import orjson
import redis
from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from store import keys
from store.entries import Entry, decode, encode


def _load_script(name: str) -> str:
    return resources.files("store").joinpath("lua", name).read_text()


@dataclass(frozen=True, slots=True)
class AppendResult:
    """Outcome of an append: "ok" (new version), "conflict" (current version), "dup" (the
    first answer), "unauthorized" or "limited" (see EventStore.append)."""

    status: str
    version: int | None = None
    first_answer: dict | None = None
    count: int | None = None  # a gate's counter after this request


@dataclass(frozen=True, slots=True)
class Gate:
    """A request counter checked by an append: key, window (s), highest count allowed."""

    key: str
    expiry_s: int
    max_count: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What one load round trip returns: entries after a version, token hashes, a prior
    answer, and the log's length (the current version)."""

    entries: list[Entry]
    token_hashes: dict[int, str]
    prior_answer: dict | None
    length: int = 0


class Rider(Protocol):
    """Commands of another concern sent in a load's round trip (e.g. a rate-limit count)."""

    def queue(self, pipe: redis.client.Pipeline) -> None:
        """Queue the commands on `pipe` (after the load's own)."""

    def answer(self, replies: list) -> None:
        """Their replies, in order; a failed command's reply is its exception."""

    def gate(self) -> Gate | None:
        """The counter an append may count instead (answered with [its count])."""


class EventStore:
    """Reads and appends the logs of games; never trims a log."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self._append = client.register_script(_load_script("append.lua"))

    def load(
        self,
        game_id: str,
        after: int = 0,
        idempotency_field: str | None = None,
        limit: int | None = None,
        rider: Rider | None = None,
    ) -> Snapshot:
        """Entries after version `after` (at most `limit`), token hashes, a recorded answer.

        A `rider` queues its own commands in the same round trip and gets their replies
        (errors included, as exception objects) before the snapshot is returned.
        """
        pipe = self.client.pipeline(transaction=False)  # a read; the append re-checks
        pipe.lrange(keys.log(game_id), after, -1 if limit is None else after + limit - 1)
        pipe.hgetall(keys.tokens(game_id))
        pipe.llen(keys.log(game_id))
        if idempotency_field:
            pipe.hget(keys.idempotency(game_id), idempotency_field)
        if rider is None:
            replies = pipe.execute()
        else:
            own = len(pipe)
            rider.queue(pipe)
            replies = pipe.execute(raise_on_error=False)
            rider.answer(replies[own:])
            for reply in replies[:own]:
                if isinstance(reply, Exception):
                    raise reply
        prior = replies[3] if idempotency_field else None
        return Snapshot(
            entries=[decode(raw) for raw in replies[0]],
            token_hashes={int(seat): _text(h) for seat, h in replies[1].items()},
            prior_answer=orjson.loads(prior) if prior else None,
            length=replies[2],
        )

    def length(self, game_id: str) -> int:
        """The current version of a game (0 when it does not exist)."""
        return self.client.llen(keys.log(game_id))

    def append(
        self,
        game_id: str,
        expected_version: int,
        entries: list[Entry],
        idempotency_field: str | None = None,
        answer: dict | None = None,
        token_hashes: dict[int, str] | None = None,
        also: Callable[[redis.client.Pipeline], None] | None = None,
        token_check: tuple[int, str] | None = None,
        gate: Gate | None = None,
    ) -> AppendResult:
        """Append a batch atomically if the log is still at `expected_version`.

        `also` may queue more commands (index writes) sent in the same round trip, after the
        script; they run whatever the script's outcome, so a caller must repair them when
        the result is not "ok". `token_check` (seat, token hash) refuses the append
        ("unauthorized") unless that seat's stored hash is the given one. A `gate` (a
        counter on the same standalone Redis) is counted first and refuses ("limited")
        above its highest count; `AppendResult.count` is then the counter's value.
        """
        check_seat, check_hash = token_check if token_check is not None else ("", "")
        gate_expiry, gate_max = (gate.expiry_s, gate.max_count) if gate is not None else ("", "")
        args: list = [
            expected_version,
            idempotency_field or "",
            orjson.dumps(answer, option=orjson.OPT_NON_STR_KEYS) if idempotency_field else "",
            check_seat,
            check_hash,
            gate_expiry,
            gate_max,
            len(entries),
            *(encode(entry) for entry in entries),
        ]
        for seat, digest in (token_hashes or {}).items():
            args.extend((seat, digest))
        script_keys = [keys.log(game_id), keys.idempotency(game_id), keys.tokens(game_id)]
        if gate is not None:
            script_keys.append(gate.key)
        if also is None:
            reply = self._append(keys=script_keys, args=args)
        elif isinstance(self.client, RedisCluster):
            # redis-py refuses EVALSHA inside a cluster pipeline: two round trips there.
            reply = self._append(keys=script_keys, args=args)
            pipe = self.client.pipeline(transaction=False)
            also(pipe)
            pipe.execute()
        else:
            reply = self._append_pipelined(script_keys, args, also)
        status, count = _text(reply[0]), int(reply[2])
        count = count if count >= 0 else None
        if status == "dup":
            return AppendResult("dup", first_answer=orjson.loads(reply[1]), count=count)
        return AppendResult(status, version=int(reply[1]), count=count)

    def _append_pipelined(self, script_keys: list[str], args: list, also) -> list:
        for _ in range(2):
            pipe = self.client.pipeline(transaction=False)
            pipe.evalsha(self._append.sha, len(script_keys), *script_keys, *args)
            also(pipe)
            replies = pipe.execute(raise_on_error=False)
            if isinstance(replies[0], NoScriptError):
                self.client.script_load(self._append.script)
                continue
            for reply in replies:
                if isinstance(reply, Exception):
                    raise reply
            return replies[0]
        raise NoScriptError("the append script could not be loaded")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
