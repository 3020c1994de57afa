"""Committing a game's new version: its append, then its index writes, made only if the
append happened (never a version the log does not hold).

On a standalone Redis both run in one script call: `store/lua/commit_wrapper.lua` runs the
append script, then, when it appended, the index script
(`store/lua/index_after_append.lua`, which also checks that the log holds the batch's last
entry at the new version). On a Redis Cluster the index keys sit on other slots: the index
is written in a second round trip, after an append that succeeded.

With KELTIS_DURABLE_REPLICAS the append is followed by a WAIT for that many replicas before
the commit returns (store.games.durability).
"""

from __future__ import annotations

from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from gamelog.record import GameRecord
from store import keys
from store.core import notify
from store.core.roundtrip import Batch
from store.core.scripts import load_script
from store.games import index
from store.games.durability import Durability, NotDurable, append_on_cluster
from store.games.eventstore import AppendRequest, AppendResult, EventStore

FIXED_APPEND_ARGS = 6  # the append script's arguments before its entries


def commit_script() -> str:
    """The text of the one-call commit: the wrapper with the two scripts' bodies."""
    text = load_script("commit_wrapper.lua")
    for name in ("append.lua", "index_after_append.lua"):
        marker = f"\n--@{name}\n"
        if text.count(marker) != 1:
            raise RuntimeError(f"commit_wrapper.lua must mark the place of {name} once")
        text = text.replace(marker, f"\n{load_script(name)}\n")
    return text


class Committer:
    """Appends a decided batch and indexes the version it makes."""

    def __init__(self, store: EventStore, durability: Durability | None = None):
        self.store = store
        self.durability = durability or Durability()
        self.client = store.client
        self.clustered = isinstance(self.client, RedisCluster)
        self.commit_script = self.client.register_script(commit_script())

    def commit(
        self, request: AppendRequest, after: GameRecord, before: GameRecord | None
    ) -> AppendResult:
        """Append `request` (whose batch makes `after` from `before`) and, when it was
        appended, write the index entries of `after` and notify the channels of the game and
        of its seated accounts (store.core.notify)."""
        accounts = [p["account"] for p in after.players if p.get("account")]
        if self.clustered:
            if not self.durability.on:
                result = self.store.append(request, after)
                self._written(result, after, before, accounts)
                return result
            try:
                result = append_on_cluster(self.client, self.store, self.durability, request, after)
            except NotDurable as short:  # the move may stand: its index and hint follow it
                self._written(short.result, after, before, accounts)
                raise
            self._written(result, after, before, accounts)
            return result
        channels = notify.channels_of(after.game_id, accounts)
        if index.account_to_move(after):  # wake the webhook threads (workers.webhooks)
            channels.append(keys.account_turns_channel())
        append_keys, append_args = self.store.script_call(request, after)
        last_entry = append_args[FIXED_APPEND_ARGS + len(request.entries) - 1]
        index_keys, index_args = index.after_append_call(
            after, before, keys.log(request.game_id), last_entry, (channels, notify.message(after))
        )
        script_keys = [*append_keys, *index_keys]
        args = [len(append_keys), len(append_args), *append_args, *index_args]
        for _ in range(2):
            batch = Batch(self.client)
            batch.evalsha(self.commit_script.sha, len(script_keys), *script_keys, *args)
            if self.durability.on:  # on the append's own connection (store.games.durability)
                batch.commands.append(self.durability.command())
            reply, *reached = batch.execute(raise_on_error=False)
            if isinstance(reply, NoScriptError):  # nothing ran: load the script, send again
                self.client.script_load(self.commit_script.script)
                continue
            if isinstance(reply, Exception):
                raise reply
            result = self.store.result_of(reply)
            if reached:
                self.durability.check_result(result, request.game_id, reached[0])
            return result
        raise NoScriptError("the store's commit script could not be loaded")

    def _written(
        self, result: AppendResult, after: GameRecord, before: GameRecord | None, accounts: list
    ) -> None:
        """On a cluster, after an append that happened: its index entries and notification."""
        if result.ok:
            self.write_index(after, before)
            extra = [keys.account_turns_channel()] if index.account_to_move(after) else []
            notify.publish(self.client, after.game_id, after.version, accounts, extra)

    def write_index(
        self, record: GameRecord, before: GameRecord | None = None, listed: bool | None = None
    ) -> None:
        """Write the index entries of one game's version (one pipelined round trip);
        `listed` as store.games.index.update takes it."""
        pipe = self.client.pipeline(transaction=False)
        index.update(pipe, record, before, listed)
        pipe.execute()
