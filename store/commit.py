"""Committing a game's new version: its append, then its index writes, made only if the
append happened (never a version the log does not hold).

On a standalone Redis both run in one script call: `store/lua/commit_wrapper.lua` runs the
append script, then, when it appended, the index script
(`store/lua/index_after_append.lua`, which also checks that the log holds the batch's last
entry at the new version). On a Redis Cluster the index keys sit on other slots: the index
is written in a second round trip, after an append that succeeded.
"""

from __future__ import annotations

from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from gamelog.record import GameRecord
from store import index, keys, notify
from store.eventstore import AppendRequest, AppendResult, EventStore, load_script
from store.roundtrip import Batch

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

    def __init__(self, store: EventStore):
        self.store = store
        self.client = store.client
        self.clustered = isinstance(self.client, RedisCluster)
        self.commit_script = self.client.register_script(commit_script())

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
            (reply,) = batch.execute(raise_on_error=False)
            if isinstance(reply, NoScriptError):  # nothing ran: load the script, send again
                self.client.script_load(self.commit_script.script)
                continue
            if isinstance(reply, Exception):
                raise reply
            return self.store.result_of(reply)
        raise NoScriptError("the store's commit script could not be loaded")

    def write_index(
        self, record: GameRecord, before: GameRecord | None = None, listed: bool | None = None
    ) -> None:
        """Write the index entries of one game's version (one pipelined round trip);
        `listed` as store.index.update takes it."""
        pipe = self.client.pipeline(transaction=False)
        index.update(pipe, record, before, listed)
        pipe.execute()
