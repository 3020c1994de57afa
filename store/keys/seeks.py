"""Keys of the rated pool's seeks."""

from __future__ import annotations

import zlib

from store.keys.games import PREFIX

# ----- seeks (the rated pool: application.seeks.service, application.seeks.pairing)
# ----------------------
# A seek's own keys carry `{s:<seek id>}` (one slot per seek); the list of open seeks is
# split into OPEN_SHARDS sorted sets by seek id (`{so:<n>}`); an account's open seeks and
# recent opponents carry its account's tag `{a:<name>}`, an address's open seeks its
# holds' tag `{c:<address>}`. So no slot carries the whole pool: a claim names one seek at a
# time (store.seeks.records), and a pass reads every shard.

OPEN_SHARDS = 16


def _seek(seek_id: str, part: str = "") -> str:
    return f"{PREFIX}:seeks:{{s:{seek_id}}}{part}"


def seek(seek_id: str) -> str:
    """Hash of one open seek: `data` (JSON: account, game, options, players, clock, rated,
    max_games, created_at, address), `since` (ms it last became free to pair) and `seen`
    (ms its account was last seen listening)."""
    return _seek(seek_id)


def seek_playing(seek_id: str) -> str:
    """Sorted set of the seek's claimed games still in play, scored by when claimed (ms)."""
    return _seek(seek_id, ":playing")


def seek_games(seek_id: str) -> str:
    """List of the ids of the newest games started from the seek (oldest first)."""
    return _seek(seek_id, ":games")


def seeks_open_shard(seek_id: str) -> int:
    """Which shard of the open seeks lists a seek (stable: crc32 of its id)."""
    return zlib.crc32(seek_id.encode()) % OPEN_SHARDS


def seeks_open(shard: int) -> str:
    """Sorted set of the open seek ids of one shard, scored by creation (ms): what pairing
    reads (every shard)."""
    return f"{PREFIX}:seeks:{{so:{shard}}}:open"


def seeks_open_of(seek_id: str) -> str:
    """The shard of the open seeks that lists `seek_id`."""
    return seeks_open(seeks_open_shard(seek_id))


def seeks_of_account(folded_name: str) -> str:
    """Sorted set of an account's open seek ids, by creation (ms) (its bound, its list)."""
    return f"{PREFIX}:seeks:{{a:{folded_name}}}:open"


def seeks_of_address(address: str) -> str:
    """Sorted set of the open seek ids created from one client address, by creation (ms)."""
    return f"{PREFIX}:seeks:{{c:{address}}}:open"


def seek_recent(folded_name: str) -> str:
    """Sorted set of an account's recent pool opponents (participant ids), scored by when
    they were paired (ms): pairing prefers others while they are recent."""
    return f"{PREFIX}:seeks:{{a:{folded_name}}}:recent"


def seeks_pass_lease() -> str:
    """The lease of the process running a pairing pass (SET NX PX; one key, two commands a
    pass: the same name as before the pool was split, so old and new workers share it)."""
    return f"{PREFIX}:seeks:{{seeks}}:pass"


def seeks_channel() -> str:
    """The doorbell of the pairing threads: told when a seek opens (a hint)."""
    return f"{PREFIX}:notify:seeks"


# ----- the pool's keys before it was split (read only by store.seeks.migrate) -------------


def _legacy(part: str) -> str:
    return f"{PREFIX}:seeks:{{seeks}}:{part}"


def legacy_seek(seek_id: str) -> str:
    return _legacy(f"seek:{seek_id}")


def legacy_seek_playing(seek_id: str) -> str:
    return _legacy(f"seek:{seek_id}:playing")


def legacy_seek_games(seek_id: str) -> str:
    return _legacy(f"seek:{seek_id}:games")


def legacy_seeks_open() -> str:
    return _legacy("open")


def legacy_seeks_of_account(folded_name: str) -> str:
    return _legacy(f"account:{folded_name}")


def legacy_seeks_of_address(address: str) -> str:
    return _legacy(f"address:{address}")


def legacy_seek_recent_pattern() -> str:
    """SCAN pattern of the old recent-opponents keys (the name follows the prefix)."""
    return _legacy("recent:*")


def legacy_seek_recent_prefix() -> str:
    return _legacy("recent:")
