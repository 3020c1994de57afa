"""RQ's queue names and job ids (only [A-Za-z0-9_-] in ids)."""

from __future__ import annotations

from store.keys.games import PREFIX

# ----- RQ queues and job ids (only [A-Za-z0-9_-] in ids) ------------------------------------


def person_bot_queue_name() -> str:
    """The RQ queue of bot turns of games with a person seated (served first)."""
    return f"{PREFIX}-bots-person"


def bulk_bot_queue_name() -> str:
    """The RQ queue of bot turns of all-bot games (served after a person's games, fed one
    job at a time by the fair queue, store.bots.fair_queue)."""
    return f"{PREFIX}-bots-bulk"


def tournament_queue_name() -> str:
    """The RQ queue of tournament jobs (served in turn with the bulk queue; at most one
    waiting job per tournament, so tournaments take turns)."""
    return f"{PREFIX}-tournaments"


def fair_lane(part: str) -> str:
    """A key of the bulk lane's fair queue on RQ's Redis (store.bots.fair_queue): `ring` (sorted
    set: the stream key of each stream with waiting jobs -> its start tag), `finish` (sorted
    set: stream key -> the tag its next job may start at, kept while it is ahead), `clock`
    (string: the tag last dispatched), `waiting` (sorted set: waiting job id -> when it was
    queued, ms), `idle` (sorted set: worker name -> until when (ms) it waits for work)."""
    return f"{PREFIX}:fair:{part}"


def fair_stream(stream: str) -> str:
    """List: the waiting job ids of one stream of bulk work (a creator: `acct:<name>`,
    `addr:<address>`, `t:<tournament id>`, or `game:<id>` when none is recorded)."""
    return f"{PREFIX}:fair:stream:{stream}"


def bot_job_id(game_id: str, version: int) -> str:
    """RQ job id of the bot turn due at `version` of a game."""
    return f"bot-{game_id}-{version}"


def tournament_game_job_id(tournament_id: str, first: int) -> str:
    """RQ job id of the job that plays a tournament's games from `first` on."""
    return f"tgame-{tournament_id}-{first}"


def archive_job_id(tournament_id: str) -> str:
    """RQ job id of the job that builds a tournament's replay archive."""
    return f"archive-{tournament_id}"
