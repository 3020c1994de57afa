"""The use cases of tournaments: start one, follow it, play its games, build its archive,
and find its lost jobs.

Each game of a tournament is an ordinary event-sourced game, created through `GameService`
like an API game, with the id `<tournament id>-g<index>` and the seed derived from the
tournament's seed (`tournaments.seeds`). Its bots choose with the same per-version random
source as every bot turn of the service (`application.bots.turns`), so whoever finishes a game
(a job, a rerun, or the bot sweep after a crash) the game is the same.

Running a game job twice does no harm: a rerun finds the existing game and finishes it (or
just reads its result), the rest of a game is appended in one atomic batch with its expected
version, and an outcome is recorded once (HSETNX).
"""

from __future__ import annotations

import hmac
import io
import secrets
import zipfile
from dataclasses import dataclass, replace

from application.accounts.errors import AccountNotFound
from application.games import seating
from application.games.errors import VersionConflict
from application.games.service import GameService
from application.tournaments import entries as tournament_entries
from application.tournaments import match_tournaments
from application.tournaments.matches import second_game_id
from application.tournaments.tournament_games import (
    finish,
    outcome_of,
    placement,
    players_of,
)
from gamelog.record import GameRecord
from replays.build import build_replay
from replays.files import dump_replay
from store.accounts.records import AccountStore
from store.core.clock import now_ms
from store.core.cursor import Position
from store.games import tokens
from store.games.index import any_live
from store.ladder.records import LadderStore
from store.tournaments.records import ARCHIVE_QUEUED, ARCHIVE_READY, TournamentStore
from tournaments import errors, seeds
from tournaments.schedule import ROTATION
from tournaments.spec import (
    ACCOUNT_PREFIX,
    DEFAULT_CONCURRENCY,
    TWO_BOARDS,
    TournamentSpec,
    account_name,
    is_account,
    make_spec,
    new_salt,
)
from tournaments.standings import GameOutcome, results
from tournaments.summary import (
    Progress,
    compute_table,
    export_document,
    status_from,
    summary,
)

ORGANISER_PREFIX = "kt_"
ORGANISER_BYTES = 24
LEASE_FRESH_MS = 60_000  # a fast-path game takes well under a second


# ----- starting and following --------------------------------------------------------------


@dataclass(frozen=True)
class Started:
    """A tournament just recorded: its id, spec, and the organiser's token (shown once)."""

    tid: str
    spec: TournamentSpec
    token: str


def start(
    store: TournamentStore,
    request: dict,
    accounts: AccountStore | None = None,
    entrant: str | None = None,
) -> Started:
    """Record a new tournament from a validated request (salted, R1). Account entries
    (`@name`) must name bot accounts (AccountNotFound, PersonNotEntrant); they are written
    as the accounts write their names, and invited, but `entrant` (the caller's own
    account) entered (application.tournaments.entries). Rated by default when an account
    is entered; `rated` with built-in bots alone is RatedNeedsAccount, as POST /v1/games."""
    spec = make_spec(
        request["game"],
        request["bots"],
        request.get("players_per_game"),
        request.get("games"),
        request.get("seed"),
        options=request.get("options") or {},
        format=request.get("format", ROTATION),
        games_per_table=request.get("games_per_table"),
        clock=request.get("clock"),
        concurrency=request.get("concurrency", DEFAULT_CONCURRENCY),
        parallel_per_account=request.get("parallel_per_account", False),
        match=request.get("match", "single"),
        rated=request.get("rated"),
    )
    seating.check_rated_consent(
        [{"account": e} if is_account(e) else {"bot": e} for e in spec.bots], spec.rated
    )
    if spec.open:
        spec = replace(spec, bots=_checked_entries(accounts or AccountStore(store.client), spec))
    spec = replace(spec, salt=new_salt())  # the server's share of the randomness (R1)
    tid = seeds.new_tournament_id()
    token = ORGANISER_PREFIX + secrets.token_urlsafe(ORGANISER_BYTES)
    tournament_entries.invite(store, tid, spec, entrant)  # before a pass can see it
    store.create(tid, spec)
    store.set_organiser(tid, tokens.digest(token))
    return Started(tid, spec, token)


def _checked_entries(accounts: AccountStore, spec: TournamentSpec) -> tuple[str, ...]:
    """The entries with each account checked and written as stored."""
    checked = []
    for entry in spec.bots:
        if not is_account(entry):
            checked.append(entry)
            continue
        record = accounts.get(account_name(entry))
        if record is None:
            raise AccountNotFound(f"no account named {account_name(entry)!r}")
        if not record.bot:
            raise errors.PersonNotEntrant(
                f"{record.name!r} is a person's account: only bot accounts enter tournaments"
            )
        checked.append(ACCOUNT_PREFIX + record.name)
    seating.check_entries(account_name(e) for e in checked if is_account(e))
    return tuple(checked)


def check_organiser(store: TournamentStore, tid: str, token: str | None) -> None:
    """NotOrganiser unless `token` is the one given when the tournament was created."""
    stored = store.meta(tid).get("organiser")
    given = tokens.digest(token) if token else ""
    if not stored or not hmac.compare_digest(stored, given):
        raise errors.NotOrganiser("only the organiser's token (given at creation) may do this")


def describe(store: TournamentStore, tid: str, with_outcomes: bool = False) -> dict:
    """A tournament's summary (or its export document); standings are cached per number of
    finished games."""
    spec, created_at = store.load(tid)
    outcomes = store.outcomes(tid) if with_outcomes else None
    done = len(outcomes) if outcomes is not None else store.done(tid)
    table = store.cached_standings(tid, done)
    if table is None:
        outcomes = outcomes if outcomes is not None else store.outcomes(tid)
        done = len(outcomes)
        table = compute_table(spec, outcomes)
        store.cache_standings(tid, done, table)
    meta = store.meta(tid)
    finished_at = int(meta["finished_at"]) if "finished_at" in meta else None
    cancelled_at = int(meta["cancelled_at"]) if "cancelled_at" in meta else None
    counts = progress_counts(store, tid, spec, done, cancelled_at is not None)
    settled = cancelled_at is not None and not games_live(store, tid, spec)
    found = summary(
        tid,
        spec,
        created_at,
        counts,
        table,
        finished_at,
        store.archive_state(tid),
        cancelled_at,
        settled,
    )
    found["awaiting_entries"] = store.awaiting(tid)
    return export_document(found, spec, outcomes) if with_outcomes else found


def list_tournaments(
    store: TournamentStore, after: Position | None, limit: int
) -> tuple[list[dict], str | None]:
    """A page of tournaments, newest first, after a cursor position: each one's spec in
    brief, status and progress (no standings; GET /v1/tournaments/{id} has them), and the
    next cursor (None at the end)."""
    ids, position = store.page(after, limit)
    found = []
    for tid in ids:
        spec, created_at = store.load(tid)
        meta = store.meta(tid)
        cancelled_at = int(meta["cancelled_at"]) if "cancelled_at" in meta else None
        done = store.done(tid)
        counts = progress_counts(store, tid, spec, done, cancelled_at is not None)
        found.append(
            {
                "id": tid,
                "game": spec.game,
                "format": spec.format,
                "games": spec.games,
                "status": status_from(spec, counts, cancelled_at is not None),
                "progress": counts.to_dict(spec.games),
                "created_at": created_at,
                "finished_at": int(meta["finished_at"]) if "finished_at" in meta else None,
                "cancelled_at": cancelled_at,
            }
        )
    return found, position.encode() if position else None


def progress_counts(
    store: TournamentStore, tid: str, spec: TournamentSpec, done: int, cancelled: bool
) -> Progress:
    """Games finished, running, waiting to start and cancelled (`done` counts the released
    outcomes, void ones included: a cancelled game is listed as cancelled, not finished;
    a duplicate deal's games count as running until the deal is released)."""
    void = store.void_count(tid)
    finished = done - void
    if cancelled:
        return Progress(finished, 0, 0, spec.games - finished)
    if spec.turn_by_turn:
        running = max(0, len(store.started(tid)) - done)
    else:
        running = min(len(store.leases(tid)), spec.games - done)
    return Progress(finished, running, spec.games - done - running, void)


def require_finished(store: TournamentStore, tid: str) -> TournamentSpec:
    """The spec of a tournament whose games are all over, or that was cancelled and has no
    game job at work (its unplayed games never come: waiting for them kept a cancelled
    tournament from its archive forever); TournamentRunning otherwise."""
    spec, _ = store.load(tid)
    if store.done(tid) >= spec.games:
        return spec
    if store.is_cancelled(tid) and not _job_at_work(store, tid):
        return spec
    raise errors.TournamentRunning("the tournament still has unfinished games")


def games_live(store: TournamentStore, tid: str, spec: TournamentSpec) -> bool:
    """Whether a game of the tournament may still be played: a game job at work, or a game
    launched turn by turn, with no outcome, that the index lists as live (a cancellation
    marks them cancelled; until then their decks must stay secret, R2)."""
    if _job_at_work(store, tid):
        return True
    if not spec.turn_by_turn:
        return False
    firsts = [seeds.game_id(tid, i) for i in store.started(tid) - store.recorded_indexes(tid)]
    boards = [second_game_id(g) for g in firsts] if spec.match == TWO_BOARDS else []
    return any_live(store.client, firsts + boards)


def _job_at_work(store: TournamentStore, tid: str) -> bool:
    """Whether a game job may still be playing a game: a lease taken in the last
    LEASE_FRESH_MS (a job renews it before each game; an older one is a dead worker's)."""
    since = now_ms() - LEASE_FRESH_MS
    return any(at > since for at in store.leases(tid).values())


def archive(store: TournamentStore, tid: str) -> bytes:
    """The stored replay archive; ArchiveNotReady while it is not built."""
    require_finished(store, tid)
    data = store.archive(tid)
    if data is None:
        queued = store.archive_state(tid) == ARCHIVE_QUEUED
        hint = "it is being built; try again shortly" if queued else "POST here to build it"
        raise errors.ArchiveNotReady(f"the replay archive is not ready: {hint}")
    return data


def archive_wanted(store: TournamentStore, tid: str) -> bool:
    """Note that the archive is asked for; True when it must be built (not ready yet)."""
    require_finished(store, tid)
    if store.archive_state(tid) == ARCHIVE_READY:
        return False
    store.mark_archive_queued(tid)
    return True


# ----- playing -------------------------------------------------------------------------------


def job_firsts(spec: TournamentSpec) -> range:
    """The first game index of every game job of a tournament."""
    return range(0, spec.games, spec.games_per_job)


def games_of_job(spec: TournamentSpec, first: int) -> range:
    """The game indexes the job starting at `first` plays, in order."""
    return range(first, min(first + spec.games_per_job, spec.games))


def job_first_of(spec: TournamentSpec, index: int) -> int:
    """The first game of the job that plays game `index`."""
    return index - index % spec.games_per_job


def load_or_create(service: GameService, spec: TournamentSpec, tid: str, index: int) -> GameRecord:
    """The game of `index`: a new one created through the service, or the stored one.
    An open tournament's game runs under the tournament's clock."""
    game_id = seeds.game_id(tid, index)
    planned = spec.plan(index)
    try:
        record, _, _ = service.create(
            spec.game,
            players_of(spec, planned.entries),
            spec.game_options,
            game_id=game_id,
            seed=seeds.game_seed(spec.seed, planned.deal, spec.salt),
            clock=spec.game_clock,
            tournament=placement(spec, tid, index),
            rated=spec.rated,
        )
    except VersionConflict:  # a run before this one created it
        record = service.load(game_id)[0]
    return record


def record_game(
    service: GameService, store: TournamentStore, tid: str, spec, index: int, record: GameRecord
) -> bool:
    """Record the outcome of game `index` (over); True if this call recorded it. A game of a
    duplicate deal is held back until its deal is over (store.tournaments.records); then the deal's
    games are published together (`publish_deal`)."""
    deal = spec.deal_games(index)
    recorded = store.record_outcome(tid, outcome_of(spec, index, record), spec.games, deal)
    if len(deal) > 1 and store.released(tid, deal):
        publish_deal(service, tid, deal)
    return recorded


def publish_deal(service: GameService, tid: str, deal) -> None:
    """The games of a deal that is over, in index order: listed (GET /v1/games and the
    export list them from now on, store.games.index) and due to settle at once
    (application.games.settle
    deferred them). Doing it again does no harm (the ladder appends a game once)."""
    now = service.clock()
    for index in deal:
        service.refresh_index(service.load(seeds.game_id(tid, index))[0])
    LadderStore(service.client).settle_now({seeds.game_id(tid, i): now + i for i in deal})


def play_game(service: GameService, store: TournamentStore, tid: str, spec, index: int) -> bool:
    """Play (or finish, or just read) game `index`; record its outcome; True if recorded. A
    two-board match plays both its games (application.tournaments.match_tournaments)."""
    if spec.match == TWO_BOARDS:
        return match_tournaments.play_match(service, store, tid, spec, index)
    record = finish(service, load_or_create(service, spec, tid, index))
    return record_game(service, store, tid, spec, index, record)


def play_games(service: GameService, store: TournamentStore, tid: str, first: int) -> list[int]:
    """Play the games of the job starting at `first` that have no outcome yet; the indexes
    recorded."""
    spec, _ = store.load(tid)
    if first not in job_firsts(spec):
        raise ValueError(f"tournament {tid} has no job starting at game {first}")
    recorded = []
    for index in store.unrecorded(tid, games_of_job(spec, first)):
        store.take_lease(tid, first)  # before the check: a cancelled tournament's archive
        if store.is_cancelled(tid):  # waits for a lease, never for a game begun unseen
            break
        if play_game(service, store, tid, spec, index):
            recorded.append(index)
    store.drop_lease(tid, first)
    return recorded


def archive_bytes(service: GameService, outcomes: list[GameOutcome], match: str = "") -> bytes:
    """A zip with one `<game id>.replay.json` per finished game, in index order (both games
    of a two-board match: `<id>` then `<id>-b2`)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for outcome in outcomes:
            ids = [outcome.game_id]
            if match == TWO_BOARDS:
                ids.append(f"{outcome.game_id}-b2")
            for game_id in ids:
                replay = build_replay(game_id, service.store.load(game_id).entries)
                zipped.writestr(f"{game_id}.replay.json", dump_replay(replay))
    return buffer.getvalue()


def build_archive(service: GameService, store: TournamentStore, tid: str, ttl_s: int) -> int:
    """Build and store the zip of every counted game's replay (not the void ones, as the
    export leaves cancelled games out), kept `ttl_s` seconds; the number of replays."""
    spec = require_finished(store, tid)
    outcomes = results(store.outcomes(tid))
    data = archive_bytes(service, outcomes, spec.match)
    replays = len(outcomes) * (2 if spec.match == TWO_BOARDS else 1)
    store.save_archive(tid, data, replays, ttl_s)
    return replays
