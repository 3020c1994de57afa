"""RQ jobs of tournaments: play one game, build the replay archive; and their sweep.

Each game of a tournament is an ordinary event-sourced game, created through
`store.service.GameService` like an API game, with the id `<tournament id>-g<index>` and
the seed derived from the tournament's seed (`tournaments.seeds`). Its bots choose with the
same per-version random source as every bot turn of the service
(`workers.bot_turns.bot_rng`), so whoever finishes a game (this job, a rerun, or the bot
sweep after a crash) the game is the same.

Running a job twice does no harm: a rerun finds the existing game and finishes it (or just
reads its result), the whole rest of a game is appended in one atomic batch with its expected
version, and an outcome is recorded once (HSETNX).
"""

from __future__ import annotations

import contextlib
import io
import logging
import time
import zipfile
from dataclasses import replace

import redis
from rq import Queue, Retry, get_current_job
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from domain.chance import Chance
from domain.errors import DomainError
from domain.game import FINISHED
from store.cache import RecordCache
from store.entries import Entry, make_batch
from store.errors import VersionConflict
from store.keys import PREFIX
from store.record import GameRecord
from store.service import GameService
from store.tournaments import TournamentStore
from tournaments import schedule, seeds
from tournaments.spec import TournamentSpec
from tournaments.standings import GameOutcome, entry_labels
from workers.bot_turns import bot_command, bot_rng
from workers.connection import queue_from_env, store_for

log = logging.getLogger(__name__)

GAME_JOB = "workers.tournaments.play_tournament_games"
ARCHIVE_JOB = "workers.tournaments.build_archive"
GAME_JOB_TIMEOUT_S = 300
ARCHIVE_JOB_TIMEOUT_S = 1800
MAX_COMMANDS = 100_000
MAX_APPEND_ATTEMPTS = 5
MAX_REVIVALS = 5
PENDING = {JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED}


class TournamentGameStuck(DomainError):
    """A tournament game could not be finished (no legal move, or too many commands)."""

    code = "tournament_game_stuck"


# ----- queue and job ids -----------------------------------------------------------------


def queue_name() -> str:
    """The RQ queue of tournament jobs (every `keltis worker` listens to it after bot turns)."""
    return f"{PREFIX}-tournaments"


def tournament_queue(client: redis.Redis) -> Queue:
    return Queue(queue_name(), connection=client, serializer=JSONSerializer)


def job_firsts(spec: TournamentSpec) -> range:
    """The first game index of every game job of a tournament."""
    return range(0, spec.games, spec.games_per_job)


def games_of_job(spec: TournamentSpec, first: int) -> range:
    """The game indexes the job starting at `first` plays, in order."""
    return range(first, min(first + spec.games_per_job, spec.games))


def job_first_of(spec: TournamentSpec, index: int) -> int:
    """The first game of the job that plays game `index`."""
    return index - index % spec.games_per_job


def game_job_id(tournament_id: str, first: int) -> str:
    """Id of the job that plays the games from `first` on (`games_per_job` of them)."""
    return f"tgame-{tournament_id}-{first}"


def archive_job_id(tournament_id: str) -> str:
    return f"archive-{tournament_id}"


def enqueue_games(client: redis.Redis, tournament_id: str, firsts) -> int:
    """Enqueue the game jobs starting at `firsts` in one pipeline; the number enqueued."""
    queue = tournament_queue(client)
    jobs = [
        Queue.prepare_data(
            GAME_JOB,
            args=[tournament_id, first],
            job_id=game_job_id(tournament_id, first),
            timeout=GAME_JOB_TIMEOUT_S,
            result_ttl=600,
            failure_ttl=24 * 3600,
            retry=Retry(max=3),
        )
        for first in firsts
    ]
    with client.pipeline() as pipe:
        queue.enqueue_many(jobs, pipeline=pipe)
        pipe.execute()
    return len(jobs)


def enqueue_archive(client: redis.Redis, tournament_id: str) -> bool:
    """Enqueue the archive job unless one is pending already; True when enqueued."""
    queue = tournament_queue(client)
    job_id = archive_job_id(tournament_id)
    try:
        job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
    except NoSuchJobError:
        job = None
    if job is not None:
        if job.get_status(refresh=False) in PENDING | {JobStatus.STARTED}:
            return False
        job.delete()
    try:
        queue.enqueue(
            ARCHIVE_JOB,
            args=[tournament_id],
            job_id=job_id,
            unique=True,
            job_timeout=ARCHIVE_JOB_TIMEOUT_S,
            result_ttl=600,
            failure_ttl=24 * 3600,
            retry=Retry(max=2),
        )
    except DuplicateJobError:
        return False
    return True


# ----- playing one game ---------------------------------------------------------------------


_services: dict[int, tuple[redis.Redis, GameService]] = {}


def service_for(client: redis.Redis) -> GameService:
    """One GameService per connection of this process; it never enqueues bot turns."""
    known = _services.get(id(client))
    if known is None or known[0] is not client:
        known = (client, GameService(client, cache=RecordCache(64), enqueue_bots=False))
        _services[id(client)] = known
    return known[1]


def _clients() -> tuple[redis.Redis, redis.Redis]:
    """(game store, RQ's Redis) of this job: one server, unless RQ_REDIS_URL splits them."""
    job = get_current_job()
    queue = job.connection if job is not None else queue_from_env()
    return store_for(queue), queue


def players_of(spec: TournamentSpec, entries) -> list[dict]:
    """The bot seats of a game: each named after its entry's label."""
    labels = entry_labels(spec.bots)
    return [{"name": labels[entry], "bot": spec.bots[entry]} for entry in entries]


def load_or_create(service: GameService, spec: TournamentSpec, tid: str, index: int):
    """The game of `index`: a new one created through the service, or the stored one."""
    game_id = seeds.game_id(tid, index)
    entries = schedule.seating(len(spec.bots), spec.players_per_game, index)
    try:
        record, _ = service.create(
            spec.game,
            players_of(spec, entries),
            spec.game_options,
            game_id=game_id,
            seed=seeds.game_seed(spec.seed, index, spec.salt),
        )
    except VersionConflict:  # a run before this one created it
        record = service.load(game_id)[0]
    return record


def decide_to_end(record: GameRecord, at: int) -> tuple[list[Entry], GameRecord]:
    """Every entry the bots append from `record` to the end of the game, and the record after.

    The same decisions as `GameService.decide` command by command (the rules' `decide` with
    the game's Chance, one batch per command, the bot's per-version random source), folded
    in one pass: the service's per-command record bookkeeping would cost twice the game.
    """
    rules = record.rules
    bots = [rules.bots[player["bot"]] for player in record.players]
    chance = Chance.from_hex(record.seed_hex)
    state, version = record.state, record.version
    entries: list[Entry] = []
    for _ in range(MAX_COMMANDS):
        if rules.phase(state) == FINISHED:
            break
        seat = rules.to_move(state)
        rng = bot_rng(record.seed_hex, record.game_id, version)
        command = dict(bot_command(rules, state, seat, bots[seat], rng))
        events = rules.decide(state, seat, command, chance)
        entries.extend(make_batch(version + 1, events, at, seat, command))
        for event in events:
            state = rules.evolve(state, event)
        version += len(events)
    else:
        raise TournamentGameStuck(f"game {record.game_id}: no end after {MAX_COMMANDS}")
    return entries, replace(record, state=state, version=version, updated_at=at)


def play_out(service: GameService, record: GameRecord) -> GameRecord:
    """Let the bots finish the game; the rest of it is appended as one atomic batch."""
    for _ in range(MAX_APPEND_ATTEMPTS):
        if record.finished:
            return record
        if not record.started:
            raise TournamentGameStuck(f"game {record.game_id} has not started")
        entries, after = decide_to_end(record, service.clock())
        if service.append_decided(record, entries, after, enqueue=False):
            return after
        record = service.load(record.game_id)[0]  # someone else moved it on: continue
    raise VersionConflict("the game kept moving under this job", record.version)


def play_tournament_game(
    client: redis.Redis, tournament_id: str, spec: TournamentSpec, index: int
) -> bool:
    """Play (or finish, or just read) game `index`; record its outcome; True if recorded."""
    service = service_for(client)
    record = play_out(service, load_or_create(service, spec, tournament_id, index))
    entries = schedule.seating(len(spec.bots), spec.players_per_game, index)
    outcome = GameOutcome.from_result(
        index, record.game_id, entries, record.rules.result(record.state)
    )
    return TournamentStore(client).record_outcome(tournament_id, outcome, spec.games)


def play_tournament_games(tournament_id: str, first: int) -> dict:
    """RQ job: play the games of the job starting at `first` that have no outcome yet."""
    client, _ = _clients()
    tournaments = TournamentStore(client)
    spec, _ = tournaments.load(tournament_id)
    if first not in job_firsts(spec):
        raise ValueError(f"tournament {tournament_id} has no job starting at game {first}")
    indexes = games_of_job(spec, first)
    missing = tournaments.missing_outcomes(tournament_id, indexes)
    recorded = []
    for index in missing:
        tournaments.take_lease(tournament_id, first)
        if play_tournament_game(client, tournament_id, spec, index):
            recorded.append(index)
    tournaments.drop_lease(tournament_id, first)
    return {"first": first, "recorded": recorded}


# ----- the replay archive ---------------------------------------------------------------------


def archive_bytes(service: GameService, outcomes: list[GameOutcome]) -> bytes:
    """A zip with one `<game id>.replay.json` per finished game, in index order."""
    from replays.build import build_replay
    from replays.files import dump_replay

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for outcome in outcomes:
            entries = service.store.load(outcome.game_id).entries
            replay = build_replay(outcome.game_id, entries)
            archive.writestr(f"{outcome.game_id}.replay.json", dump_replay(replay))
    return buffer.getvalue()


def build_archive(tournament_id: str) -> int:
    """RQ job: build and store the zip of every game's replay; the number of replays."""
    client, _ = _clients()
    tournaments = TournamentStore(client)
    spec, _ = tournaments.load(tournament_id)
    outcomes = tournaments.outcomes(tournament_id)
    if len(outcomes) < spec.games:
        raise ValueError(f"tournament {tournament_id} still has unfinished games")
    data = archive_bytes(service_for(client), outcomes)
    tournaments.save_archive(tournament_id, data, len(outcomes))
    return len(outcomes)


# ----- the sweep ------------------------------------------------------------------------------


def sweep_tournaments(
    client: redis.Redis,
    stale_after_s: float,
    now_ms: int | None = None,
    queue: redis.Redis | None = None,
) -> list[tuple[str, int]]:
    """Re-enqueue game jobs that were lost; the (tournament, first game) of each revived.

    `client` is the game store's Redis (tournament records), `queue` RQ's (default: same).

    A game without an outcome is lost when its job is gone, finished or failed without
    recording, or started so long ago (its lease, or the first time a sweep saw it started)
    that its worker must have died (SIGKILL, OOM...). Queued jobs are left alone. Each game
    is revived at most MAX_REVIVALS times; rerunning a game's job is harmless.
    """
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    queue = client if queue is None else queue
    stale_before = now_ms - int(stale_after_s * 1000)
    tournaments = TournamentStore(client)
    revived: list[tuple[str, int]] = []
    for tid in tournaments.running():
        try:
            spec, _ = tournaments.load(tid)
        except Exception:  # a broken record must not stop the sweep of the others
            log.exception("tournament %s: unreadable spec", tid)
            continue
        missing = set(range(spec.games)) - tournaments.recorded_indexes(tid)
        if not missing:
            tournaments.mark_finished(tid)
            continue
        firsts = sorted({job_first_of(spec, index) for index in missing})
        leases = tournaments.leases(tid)
        statuses = _job_statuses(queue, [game_job_id(tid, first) for first in firsts])
        revivals = tournaments.revivals(tid)
        lost = []
        for first, status in zip(firsts, statuses, strict=True):
            if status in PENDING:
                continue
            if status == JobStatus.STARTED:
                lease = leases.get(first)
                if lease is None:
                    tournaments.take_lease(tid, first, now_ms)  # first seen started
                    continue
                if lease > stale_before:
                    continue
            if revivals.get(first, 0) >= MAX_REVIVALS:
                continue
            # Read after the status: a job seen finished recorded its outcomes before that.
            if tournaments.missing_outcomes(tid, games_of_job(spec, first)):
                lost.append(first)
        for first in lost:
            tournaments.count_revival(tid, first)
            _delete_job(queue, game_job_id(tid, first))
        if lost:
            enqueue_games(queue, tid, lost)
            revived.extend((tid, first) for first in lost)
    return revived


def _job_statuses(client: redis.Redis, job_ids: list[str]) -> list[JobStatus | None]:
    """The RQ status of each job (None when the job does not exist), in one round trip."""
    pipe = client.pipeline(transaction=False)
    for job_id in job_ids:
        pipe.hget(Job.key_for(job_id), "status")
    statuses = []
    for raw in pipe.execute():
        if raw is None:
            statuses.append(None)
            continue
        text = raw.decode() if isinstance(raw, bytes) else raw
        try:
            statuses.append(JobStatus(text))
        except ValueError:
            statuses.append(None)
    return statuses


def _delete_job(client: redis.Redis, job_id: str) -> None:
    with contextlib.suppress(NoSuchJobError):
        Job.fetch(job_id, connection=client, serializer=JSONSerializer).delete()
