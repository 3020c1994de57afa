"""The RQ jobs of the service and how they are queued: bot turns, tournament games, replay
archives. Every job is named here, by its function, and nowhere else.

RQ conventions: JSON serializer, explicit `args=`, job ids from `store.keys`
(`[A-Za-z0-9_-]`), and jobs that do no harm when run twice (RQ runs a job at least once).
Queues (`queues`): bot turns of games with a person seated, served first; bot turns of
all-bot games (bulk) and tournament jobs, served in turn (workers.fair), so that neither
stream holds the workers for ever. Bulk bot turns wait in a fair queue of their own
(store.bots.fair_queue), one stream per creator (`creator_stream`), which hands RQ's bulk queue
one job at a time: one creator's many or long games delay another's first bot turn by about
one job per worker. A tournament has at most one job waiting in its queue: a game job hands
on the tournament's next job when it starts (`hand_on`), behind the jobs other tournaments
handed on, so tournaments take turns (round robin) while a lone tournament still keeps
every idle worker busy.
"""

from __future__ import annotations

import contextlib
import time
from datetime import UTC, datetime

import redis
from rq import Queue, Retry, get_current_job
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.executions import Execution
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.scripts import save_unique_job
from rq.serializers import JSONSerializer

import settings
from application.bots import analysis
from application.bots import turns as bots
from application.budget import service as budget
from application.games import stalls
from application.games.service import GameService
from application.metrics import counters as metrics
from application.tournaments import entries as tournament_entries
from application.tournaments import open_tournaments
from application.tournaments import service as tournaments
from gamelog.record import GameRecord
from store import keys
from store.bots.fair_queue import FairQueue
from store.core.cache import RecordCache
from store.core.codec import text
from store.core.locate import queue_from_env, store_for
from store.tournaments.records import TournamentStore

BOT_JOB_TIMEOUT_S = 120
GAME_JOB_TIMEOUT_S = 300
ARCHIVE_JOB_TIMEOUT_S = 1800
ANALYSIS_JOB_TIMEOUT_S = 1800
PENDING = frozenset({JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED})
ARCHIVE_TTL_ENV = "KELTIS_ARCHIVE_TTL_S"


def bot_queue(client: redis.Redis, person: bool) -> Queue:
    """The queue of bot turns on RQ's Redis `client`: of games with a person seated, or of
    all-bot games (bulk)."""
    name = keys.person_bot_queue_name() if person else keys.bulk_bot_queue_name()
    return Queue(name, connection=client, serializer=JSONSerializer)


def tournament_queue(client: redis.Redis) -> Queue:
    """The queue of tournament jobs (game batches and archives)."""
    return Queue(keys.tournament_queue_name(), connection=client, serializer=JSONSerializer)


def queues(client: redis.Redis) -> list[Queue]:
    """Every queue a worker serves: a person's bot turns first, then bulk bot turns and
    tournament jobs in turn (workers.fair)."""
    return [bot_queue(client, True), bot_queue(client, False), tournament_queue(client)]


def fair_queue(client: redis.Redis) -> FairQueue:
    """The fair queue in front of the bulk queue, on RQ's Redis `client`."""
    queue = bot_queue(client, False)
    return FairQueue(client, queue.key, queue.redis_queues_keys)


def creator_stream(store_client: redis.Redis, record: GameRecord) -> str:
    """The stream a game's bulk bot turns are served in: its tournament, else who created
    it (its creator record's payer: `acct:<name>` or `addr:<address>`), else the game."""
    if record.tournament and record.tournament.get("id"):
        return f"t:{record.tournament['id']}"
    payer = store_client.hget(keys.game_creator(record.game_id), "payer")
    return text(payer) if payer else f"game:{record.game_id}"


def fetch_job(client: redis.Redis, job_id: str) -> Job | None:
    """The job of that id, or None."""
    try:
        return Job.fetch(job_id, connection=client, serializer=JSONSerializer)
    except NoSuchJobError:
        return None


def delete_job(client: redis.Redis, job_id: str) -> None:
    """Delete a job, if it exists, with its registry entries."""
    with contextlib.suppress(NoSuchJobError):
        delete_fetched(client, Job.fetch(job_id, connection=client, serializer=JSONSerializer))


def delete_fetched(client: redis.Redis, job: Job) -> None:
    """Delete `job` with its registry entries. RQ's delete reads every execution the job
    lists and raises on one whose record has expired (its worker was SIGKILLed), so those
    are dropped from the job's executions and from the started registry first."""
    execution_ids = [text(raw) for raw in client.zrange(job.execution_registry.key, 0, -1)]
    if execution_ids:
        pipe = client.pipeline(transaction=False)
        for execution_id in execution_ids:
            pipe.exists(Execution(execution_id, job.id, client).key)
        lost = [i for i, kept in zip(execution_ids, pipe.execute(), strict=True) if not kept]
        if lost:
            started = StartedJobRegistry(job.origin, connection=client)
            pipe.zrem(job.execution_registry.key, *lost)
            pipe.zrem(started.key, *(f"{job.id}:{execution_id}" for execution_id in lost))
            pipe.execute()
    job.delete()


# ----- the job functions (run by `keltis worker`) -----------------------------------------


_services: dict[tuple[int, bool], tuple[redis.Redis, GameService]] = {}


def _clients() -> tuple[redis.Redis, redis.Redis]:
    """(game store, RQ's Redis) of this job: one server, unless RQ_REDIS_URL splits them."""
    job = get_current_job()
    queue = job.connection if job is not None else queue_from_env()
    return store_for(queue), queue


def service_for(queue: redis.Redis, schedules_bots: bool = True) -> GameService:
    """One GameService (with its cache) per RQ connection of this process; the service of
    tournament jobs schedules no bot turns (its games are played out in one batch)."""
    known = _services.get((id(queue), schedules_bots))
    if known is None or known[0] is not queue:
        scheduler = BotTurnQueue(queue) if schedules_bots else None
        cache = RecordCache() if schedules_bots else RecordCache(64)
        known = (queue, GameService(store_for(queue), cache=cache, scheduler=scheduler))
        _services[(id(queue), schedules_bots)] = known
    return known[1]


def play_bot_turns(game_id: str, version: int) -> int:
    """Job: the bot turns of a game due at `version`; the number played. A bot that raises
    is counted (application.games.stalls) before the job fails."""
    _, queue = _clients()
    service = service_for(queue)
    queue_name = _note_wait()
    began, started = time.thread_time(), time.perf_counter()
    try:
        played = bots.play_bot_turns(
            service, game_id, version, lambda record: budget.spent(service.client, record)
        )
    except Exception as error:
        record, _, _ = service.load(game_id)
        if record.version == version:
            stalls.bot_failed(service, record, error)
        raise
    if played:
        used_s = time.thread_time() - began
        metrics.bot_cpu_used(budget.note_game_cpu(service, game_id, used_s), used_s)
    metrics.bot_turn_done(queue_name, played, time.perf_counter() - started)
    return played


def _note_wait() -> str:
    """Count how long the running job waited in its queue; the queue's name ("direct"
    outside a job)."""
    job = get_current_job()
    if job is None:
        return "direct"
    if job.enqueued_at is not None:
        enqueued = job.enqueued_at
        if enqueued.tzinfo is None:  # RQ stores UTC
            enqueued = enqueued.replace(tzinfo=UTC)
        metrics.bot_turn_waited(job.origin, (datetime.now(UTC) - enqueued).total_seconds())
    return job.origin


def play_tournament_games(tournament_id: str, first: int) -> dict:
    """Job: hand on the tournament's next job, then play the games of this one (starting at
    `first`) that have no outcome yet."""
    client, queue = _clients()
    store = TournamentStore(client)
    hand_on(store, queue, tournament_id, first)
    service = service_for(queue, schedules_bots=False)
    began = time.thread_time()
    recorded = tournaments.play_games(service, store, tournament_id, first)
    used_s = time.thread_time() - began
    budget.note_tournament_cpu(service.client, tournament_id, used_s)
    metrics.bot_cpu_used("tournament", used_s)
    return {"first": first, "recorded": recorded}


def archive_ttl_s() -> int:
    """Seconds a built archive is kept (KELTIS_ARCHIVE_TTL_S, default one hour)."""
    return settings.current().archive_ttl_s


def build_archive(tournament_id: str) -> int:
    """Job: build and store the zip of every game's replay (it expires after
    `archive_ttl_s`); the number of replays."""
    client, queue = _clients()
    service = service_for(queue, schedules_bots=False)
    store = TournamentStore(client)
    return tournaments.build_archive(service, store, tournament_id, archive_ttl_s())


def analyse_game(game_id: str) -> dict:
    """Job: analyse a finished game and keep the result (application.bots.analysis); its
    decisions and CPU seconds."""
    _, queue = _clients()
    result = analysis.run(service_for(queue, schedules_bots=False), game_id)
    metrics.bot_cpu_used("analysis", result["cpu_seconds"])
    return {"decisions": len(result["decisions"]), "cpu_seconds": result["cpu_seconds"]}


# ----- queueing ------------------------------------------------------------------------------


class BotTurnQueue:
    """The BotScheduler of a GameService: a due bot turn becomes an RQ job."""

    STREAMS_KEPT = 4096  # games whose stream this process remembers (one HGET each)

    def __init__(self, client: redis.Redis, store_client: redis.Redis | None = None):
        self.client = client
        self.store_client = store_client
        self._streams: dict[str, str] = {}

    def bot_due(self, record: GameRecord) -> None:
        """Queue the bot turn due at the record's version: in the person queue when a
        person is seated, else in its creator's stream of the fair queue."""
        person = has_person(record)
        stream = None if person else self._stream(record)
        enqueue_bot_turn(self.client, record.game_id, record.version, person=person, stream=stream)

    def _stream(self, record: GameRecord) -> str:
        known = self._streams.get(record.game_id)
        if known is None:
            if self.store_client is None:
                self.store_client = store_for(self.client)
            known = creator_stream(self.store_client, record)
            if len(self._streams) >= self.STREAMS_KEPT:
                self._streams.pop(next(iter(self._streams)))
            self._streams[record.game_id] = known
        return known


def has_person(record: GameRecord) -> bool:
    """Whether a seat of the game is (or waits for) a person rather than a bot. A
    tournament's game is bulk work: its account seats are bot accounts (an open
    tournament's searching bots must not take the lane of a person's bot turns)."""
    if record.tournament:
        return False
    return any(not player.get("bot") for player in record.players)


def enqueue_bot_turn(
    client: redis.Redis,
    game_id: str,
    version: int,
    *,
    person: bool,
    retry: bool = False,
    stream: str | None = None,
) -> bool:
    """Enqueue the bot turn due at `version`: in the person queue, or in the fair queue's
    `stream` (default: the game's own); a repeat does nothing. True when enqueued.

    With `retry` (the sweep), a job of that id that is no longer pending (its worker died,
    or it failed) is replaced; running it again is harmless (the append checks the version).
    """
    queue = bot_queue(client, person)
    job_id = keys.bot_job_id(game_id, version)
    if retry:
        job = fetch_job(client, job_id)
        if job is not None:
            origin = Queue(job.origin, connection=client, serializer=JSONSerializer)
            if job.get_status(refresh=False) in PENDING and (
                job_id in origin.job_ids or fair_queue(client).waiting(job_id)
            ):
                return False
            delete_fetched(client, job)
    job = queue.create_job(
        play_bot_turns,
        args=[game_id, version],
        job_id=job_id,
        timeout=BOT_JOB_TIMEOUT_S,
        result_ttl=300,
        failure_ttl=3600,
    )
    try:
        if person:
            queue.enqueue_job(job, unique=True)
        else:
            queue._prepare_for_queue(job)  # what RQ's enqueue sets: origin, status, time
            save_unique_job(client, queue.key, job, enqueue=False)
            fair_queue(client).push(stream or f"game:{game_id}", job_id)
    except DuplicateJobError:
        return False
    return True


def enqueue_games(client: redis.Redis, tournament_id: str, firsts) -> int:
    """Enqueue the game jobs starting at `firsts` in one pipeline; the number enqueued."""
    queue = tournament_queue(client)
    jobs = [
        Queue.prepare_data(
            play_tournament_games,
            args=[tournament_id, first],
            job_id=keys.tournament_game_job_id(tournament_id, first),
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
    job_id = keys.archive_job_id(tournament_id)
    job = fetch_job(client, job_id)
    if job is not None:
        if job.get_status(refresh=False) in PENDING | {JobStatus.STARTED}:
            return False
        delete_fetched(client, job)
    try:
        queue.enqueue(
            build_archive,
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


def enqueue_analysis(client: redis.Redis, game_id: str) -> str:
    """Enqueue a claimed game's analysis in the bulk bot lane; its job id."""
    job_id = keys.analysis_job_id(game_id)
    delete_job(client, job_id)  # a failed run of an earlier claim
    bot_queue(client, False).enqueue(
        analyse_game,
        args=[game_id],
        job_id=job_id,
        job_timeout=ANALYSIS_JOB_TIMEOUT_S,
        result_ttl=600,
        failure_ttl=24 * 3600,
    )
    return job_id


def job_gone(client: redis.Redis, job_id: str | None) -> bool:
    """Whether a job is no longer queued, running or done (deleted, failed, stopped)."""
    job = fetch_job(client, job_id) if job_id else None
    if job is None:
        return True
    ended = (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)
    return job.get_status(refresh=False) in ended


def dispatch_next(store: TournamentStore, queue: redis.Redis, tid: str, spec) -> int | None:
    """Enqueue the tournament's next undispatched game job; its first game, or None when
    every job was dispatched already."""
    firsts = tournaments.job_firsts(spec)
    number = store.claim_next_job(tid)
    if number >= len(firsts):
        return None
    enqueue_games(queue, tid, [firsts[number]])
    return firsts[number]


def hand_on(store: TournamentStore, queue: redis.Redis, tid: str, first: int) -> int | None:
    """At the start of the job of `first`: enqueue the tournament's next job, once however
    often this job runs; its first game, or None."""
    spec, _ = store.load(tid)
    firsts = tournaments.job_firsts(spec)
    if first not in firsts:
        return None  # not a job of this tournament: play_games refuses it
    number = store.hand_on(tid, first, firsts.index(first))
    if number is None or number >= len(firsts):
        return None
    enqueue_games(queue, tid, [firsts[number]])
    return firsts[number]


def start_tournament(
    service, store: TournamentStore, queue: redis.Redis, request: dict, entrant=None
):
    """Record a tournament (tournaments.Started) and set it going: built-in bots only,
    enqueue its first game job (each job hands on the next); with accounts, launch its
    first games here (application.tournaments.open_tournaments) once every account entered itself
    (`entrant`: the caller's own account, entered at once; application.tournaments.entries)."""
    started = tournaments.start(store, request, service.accounts, entrant)
    if started.spec.turn_by_turn:
        open_tournaments.advance(service, store, started.tid)
    else:
        dispatch_next(store, queue, started.tid, started.spec)
    return started


def enter_tournament(service, store: TournamentStore, tid: str, account: str) -> dict:
    """An invited account enters (application.tournaments.entries); the last one to enter
    starts the tournament's first games. Its summary."""
    if tournament_entries.enter(store, tid, account):
        open_tournaments.advance(service, store, tid)
    return tournaments.describe(store, tid)


def request_archive(store: TournamentStore, queue: redis.Redis, tid: str) -> str:
    """Ask for a finished tournament's archive (built by a job); its archive state."""
    if tournaments.archive_wanted(store, tid):
        enqueue_archive(queue, tid)
    return store.archive_state(tid)
