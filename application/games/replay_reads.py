"""A finished game's replay (JSON) and its viewer page, built once and kept compressed.

Both are built together, on a build thread (application.common.offload), the first time either is
asked for, and kept by application.games.built_once under a name made of the game's final
version and the length of its analysis (which may be done after the game ended: then it is
another answer). A live game has no replay (R2): it is refused before anything is read or
built, so nothing of a live game is ever kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from application.common import codings, offload
from application.games import built_once, seals
from replays.build import build_replay
from replays.errors import GameNotFinished
from replays.files import dump_replay
from replays.html import render_html
from store import keys
from store.games.derived import DerivedStore

REPLAY_JSON = "replay.json"
REPLAY_HTML = "replay.html"


@dataclass(frozen=True)
class File:
    """One built file as a request gets it: its ETag (unquoted), its length unpacked, and
    its body in the coding asked for (gzip when none was: the web layer unpacks it)."""

    etag: str
    length: int
    coding: str
    body: bytes


def replay_file(games, game_id: str, kind: str, coding: str | None) -> File:
    """The file `kind` of a finished game, in `coding` (br, gzip; None: gzip to unpack).
    GameNotFound, DealSealed, or GameNotFinished for a live game (R2)."""
    record = finished_record(games, game_id)
    seals.require_unsealed(games.client, record.tournament)
    if not record.finished:
        raise GameNotFinished(f"the game is {record.status}; only finished games have replays")
    # The analysis is added once done (and never changes then: it is deterministic); its
    # length alone tells whether it is there, without reading it on every request.
    analysed = games.client.hstrlen(keys.game_analysis(game_id), "result")
    name = f"replay/{record.version}/{analysed}"
    stored = coding or "gzip"
    parts = (f"{kind}:etag", f"{kind}:length", f"{kind}:{stored}")

    def build() -> dict[str, bytes]:
        analysis = games.client.hget(keys.game_analysis(game_id), "result")
        entries = games.store.load(game_id).entries
        return offload.run(built_files, game_id, entries, analysis)

    found = built_once.fetch(DerivedStore(games.client), game_id, name, parts, build)
    return File(
        etag=found[parts[0]].decode(),
        length=int(found[parts[1]]),
        coding=stored,
        body=found[parts[2]],
    )


def finished_record(games, game_id: str):
    """The game's record: this process's copy when it is finished already (a finished
    game never changes), else read from the store."""
    cached = games.cache.get(game_id)
    if cached is not None and cached.record.finished:
        return cached.record
    return games.load(game_id)[0]


def built_files(game_id: str, entries, analysis: bytes | None) -> dict[str, bytes]:
    """Every part of both files of a finished game (pure: run on a build thread): per kind
    its ETag, its length and its body in each coding. GameNotFinished for a live game."""
    replay = build_replay(game_id, entries)
    if analysis is not None:  # beside the hash chain, as application.bots.analysis.with_analysis
        replay = {**replay, "analysis": orjson.loads(analysis)}
    bodies = {
        REPLAY_JSON: dump_replay(replay).encode(),
        REPLAY_HTML: render_html(replay).encode(),
    }
    parts: dict[str, bytes] = {}
    for kind, body in bodies.items():
        parts[f"{kind}:etag"] = codings.etag_of(body).encode()
        parts[f"{kind}:length"] = str(len(body)).encode()
        for coding, packed in codings.compressed(body).items():
            parts[f"{kind}:{coding}"] = packed
    return parts
