"""Committing a game's new version: its append, then its index writes, made only if the
append happened (never a version the log does not hold).

On a standalone Redis both go in one round trip: the append script, then the index script
(`store/lua/index_after_append.lua`), which checks that the log holds the batch's last entry
at the new version before writing. On a Redis Cluster the index keys sit on other slots:
the index is written in a second round trip, after an append that succeeded.
"""

from __future__ import annotations

from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from gamelog.record import GameRecord
from store import index, keys, notify
from store.eventstore import AppendRequest, AppendResult, EventStore, load_script
from store.roundtrip import Batch

FIXED_APPEND_ARGS = 6  # the append script's arguments before its entries


class Committer:
    """Appends a decided batch and indexes the version it makes."""

    def __init__(self, store: EventStore):
        self.store = store
        self.client = store.client
        self.clustered = isinstance(self.client, RedisCluster)
        self.index_script = self.client.register_script(load_script("index_after_append.lua"))

    def commit(
        self, request: AppendRequest, after: GameRecord, before: GameRecord | None
    ) -> AppendResult:
        """Append `request` (whose batch makes `after` from `before`) and, when it was
        appended, write the index entries of `after` and notify the channels of the game and
        of its seated accounts (store.notify)."""
        accounts = [p["account"] for p in after.players if p.get("account")]
        if self.clustered:
            result = self.store.append(request, after)
            if result.ok:
                self.write_index(after, before)
                notify.publish(self.client, after.game_id, after.version, accounts)
            return result
        channels = notify.channels_of(after.game_id, accounts)
        if index.account_to_move(after):  # wake the webhook threads (workers.webhooks)
            channels.append(keys.account_turns_channel())
        notices = (channels, notify.message(after))
        script_keys, args = self.store.script_call(request, after)
        last_entry = args[FIXED_APPEND_ARGS + len(request.entries) - 1]
        log_key = keys.log(request.game_id)
        for _ in range(2):
            pipe = Batch(self.client)
            sha = self.store.append_script.sha
            pipe.evalsha(sha, len(script_keys), *script_keys, *args)
            index.update_after_append(
                pipe, self.index_script, after, before, log_key, last_entry, notices
            )
            appended, indexed = pipe.execute(raise_on_error=False)
            if isinstance(appended, NoScriptError):  # nothing ran: load the scripts, resend
                self._load_scripts()
                continue
            if isinstance(appended, Exception):
                raise appended
            if isinstance(indexed, NoScriptError):  # appended; the index script alone again
                self._load_scripts()
                pipe = Batch(self.client)
                index.update_after_append(
                    pipe, self.index_script, after, before, log_key, last_entry, notices
                )
                (indexed,) = pipe.execute(raise_on_error=False)
            if isinstance(indexed, Exception):
                raise indexed
            return self.store.result_of(appended)
        raise NoScriptError("the store's scripts could not be loaded")

    def _load_scripts(self) -> None:
        self.client.script_load(self.store.append_script.script)
        self.client.script_load(self.index_script.script)

    def write_index(
        self, record: GameRecord, before: GameRecord | None = None, listed: bool | None = None
    ) -> None:
        """Write the index entries of one game's version (one pipelined round trip);
        `listed` as store.index.update takes it."""
        pipe = self.client.pipeline(transaction=False)
        index.update(pipe, record, before, listed)
        pipe.execute()
