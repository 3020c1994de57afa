"""Every Redis key name of the service, built here and nowhere else (never inside Lua).

Keys of one game carry the hash tag `{<game id>}`, so a Redis Cluster keeps a game on one
slot and the game's Lua scripts stay legal there; keys of one tournament carry `{t:<id>}`.
Index keys span games (or tournaments) and are rebuildable from the logs and specs. RQ's
queue names and job ids are built here too.
"""

from __future__ import annotations

import re

PREFIX = "keltis"
GAME_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def _game(game_id: str, part: str) -> str:
    return f"{PREFIX}:game:{{{game_id}}}:{part}"


def log(game_id: str) -> str:
    """The append-only list of log entries; entry k (1-based) is version k."""
    return _game(game_id, "log")


def idempotency(game_id: str) -> str:
    """Hash: "<seat>:<idempotency key>" -> the first answer given to that request."""
    return _game(game_id, "idem")


def tokens(game_id: str) -> str:
    """Hash: seat -> SHA-256 hex of that seat's bearer token."""
    return _game(game_id, "tokens")


def packed(game_id: str) -> str:
    """String: a finished game's compacted log (store.packing), once written the game's
    truth: its entries and token hashes in one compressed, versioned blob."""
    return _game(game_id, "packed")


def snapshot(game_id: str) -> str:
    """String: the game's record at a recent version (gamelog.snapshot), written with the
    append that made that version; derived data, dropped when the game is compacted."""
    return _game(game_id, "snapshot")


def log_pattern() -> str:
    """SCAN pattern matching the log of every game (used to rebuild the indexes)."""
    return f"{PREFIX}:game:*:log"


def packed_pattern() -> str:
    """SCAN pattern matching the compacted log of every compacted game."""
    return f"{PREFIX}:game:*:packed"


def game_id_from_log_key(key: str) -> str:
    """The game id inside a log key."""
    return key[key.index("{") + 1 : key.index("}")]


def games_by_created() -> str:
    """Sorted set of every game id, scored by creation time (ms)."""
    return f"{PREFIX}:index:games"


def games_by_status(status: str) -> str:
    """Sorted set of the ids of games in `status`, scored by creation time (ms)."""
    return f"{PREFIX}:index:games:status:{status}"


def games_by_game(game: str) -> str:
    """Sorted set of the ids of games of the game `game`, scored by creation time (ms)."""
    return f"{PREFIX}:index:games:game:{game}"


def games_by_game_and_status(game: str, status: str) -> str:
    """Sorted set of the ids of games of `game` in `status`, scored by creation time (ms)."""
    return f"{PREFIX}:index:games:game-status:{status}:{game}"


def game_summaries() -> str:
    """Hash: game id -> compact JSON summary (game, status, version, to_move, players...)."""
    return f"{PREFIX}:index:summaries"


def games_to_compact() -> str:
    """Sorted set of finished games whose log is not compacted yet, scored by when they
    finished (ms) or, once a worker claimed one, until when its claim holds (an index over
    the logs, written with the finishing append; application.compaction drains it)."""
    return f"{PREFIX}:index:to-compact"


def games_to_archive() -> str:
    """Sorted set of compacted games waiting to move to the archive tier (store.archive),
    scored by when they were compacted (ms) or, once claimed, until when the claim holds;
    filed only while KELTIS_ARCHIVE_URL is set (application.archive drains it)."""
    return f"{PREFIX}:index:to-archive"


def stalled_games() -> str:
    """Sorted set of the games whose bot turn failed too often at one version, scored by
    when they stalled (ms); the hash `stalls` holds why."""
    return f"{PREFIX}:index:stalled"


def stalls() -> str:
    """Hash: game id -> JSON {version, failures, since, reason} of its failing bot turn."""
    return f"{PREFIX}:index:stalls"


def bot_turns() -> str:
    """Sorted set of games waiting for a bot, scored by the time (ms) the bot became due."""
    return f"{PREFIX}:index:bot-turns"


def deadlines() -> str:
    """Sorted set of the games whose turn clock runs, scored by the seat's deadline (ms):
    what the workers' deadline loop claims from (an index over the logs)."""
    return f"{PREFIX}:index:deadlines"


def account_turns() -> str:
    """Sorted set of the games whose seat to move is held by an account, scored by the time
    (ms) the turn became due, or, once a webhook caller claimed it, until when its claim
    holds: what the workers' webhook thread claims from (an index over the logs)."""
    return f"{PREFIX}:index:account-turns"


def webhook_call(game_id: str) -> str:
    """Hash of a game's webhook call (application.webhooks): `version` (the turn), `attempt`
    (how many calls of it were begun) and `until` (ms: no other call of that turn before
    then), so each turn is called once at a time whoever claims it."""
    return _game(game_id, "webhook-call")


def games_waiting() -> str:
    """Sorted set of the games that wait for seats (never started), scored by creation (ms):
    what the expiry sweep looks at (the listing's own set of waiting games)."""
    return games_by_status("waiting")


def client_held(client_id: str) -> str:
    """Sorted set of a client address's held streams and long polls (slot id -> ms its
    lease ends, store.streams)."""
    return f"{PREFIX}:held:{{c:{client_id}}}"


def client_waiting_games(client_id: str) -> str:
    """Sorted set of the waiting games a client (a remote address) created, by creation (ms)."""
    return f"{PREFIX}:quota:waiting:{client_id}"


def quota_prefix() -> str:
    """Prefix of the per-client creation quota counters (the `limits` library's keys)."""
    return f"{PREFIX}:quota"


def rate_counter(prefix: str, limit: str, client: str, window: int) -> str:
    """String: requests of one client in one fixed window of one rate limit, summed over the
    web processes (api.ratecount); `prefix` is the rate limit's key prefix."""
    return f"{prefix}:{limit}:{client}:{window}"


def cpu_budget_counter(payer: str, limit: str, window: int) -> str:
    """String: milliseconds of bot CPU charged to one payer (`addr:<address>` or
    `acct:<folded name>`) in one fixed window of one budget limit (store.budget); a payer's
    counters share the hash tag `{b:<payer>}`, so one script checks them all."""
    return f"{PREFIX}:budget:{{b:{payer}}}:{limit}:{window}"


def game_creator(game_id: str) -> str:
    """Hash: who created an API game (its creator token's digest, its account) and the bot
    CPU charged for it (store.budget, store.creators)."""
    return _game(game_id, "creator")


def game_analysis(game_id: str) -> str:
    """Hash: a finished game's analysis (application.analysis): status, job id, result."""
    return _game(game_id, "analysis")


def game_derived(game_id: str) -> str:
    """Hash: answers derived from a finished game's log, built once (application.built_once):
    `<name>|<part>` -> bytes, the name carrying the identity it was built from; it expires."""
    return _game(game_id, "derived")


def game_derived_lease(game_id: str, name: str) -> str:
    """String: the lease of the one process building the derived answer `name` of a game."""
    return _game(game_id, f"derived-lease:{name}")


def analysis_job_id(game_id: str) -> str:
    """RQ job id of the job that analyses a finished game."""
    return f"analysis-{game_id}"


def tournament_cpu(tid: str) -> str:
    """Hash: the bot CPU charged for a tournament and used by its games (store.budget)."""
    return _tournament(tid, "cpu")


# ----- tournaments ---------------------------------------------------------------------------


def _tournament(tournament_id: str, part: str) -> str:
    return f"{PREFIX}:tournament:{{t:{tournament_id}}}:{part}"


def tournament_spec(tid: str) -> str:
    """JSON: the spec plus `created_at` (ms); written once."""
    return _tournament(tid, "spec")


def tournament_outcomes(tid: str) -> str:
    """Hash: game index -> JSON outcome, written with HSETNX (a result counts once)."""
    return _tournament(tid, "outcomes")


def tournament_held(tid: str) -> str:
    """Hash: game index -> JSON outcome of a duplicate deal's game held back until every
    game of its deal is over (then moved to the outcomes in index order)."""
    return _tournament(tid, "held")


def tournament_void(tid: str) -> str:
    """Set of the indexes whose recorded outcome is void (a cancelled game: no result)."""
    return _tournament(tid, "void")


def tournament_leases(tid: str) -> str:
    """Hash: first game of a job -> ms when the job last started a game."""
    return _tournament(tid, "leases")


def tournament_revivals(tid: str) -> str:
    """Hash: first game of a job -> times the sweep re-enqueued it."""
    return _tournament(tid, "revivals")


def tournament_meta(tid: str) -> str:
    """Hash: finished_at, cancelled_at, archive state, archive_games, the hash of the
    organiser's token (cancel)."""
    return _tournament(tid, "meta")


def tournament_dispatch(tid: str) -> str:
    """Hash of the fair dispatch of a tournament's game jobs: `dispatched` (jobs handed to
    the queue so far, in order), `dispatched_at` (ms), `handoff:<first>` (the job starting
    at `first` handed on its successor)."""
    return _tournament(tid, "dispatch")


def tournament_archive(tid: str) -> str:
    """The zip of the finished games' replays (bytes), with a TTL: built on request."""
    return _tournament(tid, "archive")


def tournament_standings(tid: str) -> str:
    """JSON cache: the standings at a number of recorded outcomes."""
    return _tournament(tid, "standings")


def tournament_started(tid: str) -> str:
    """Hash of an open tournament's games launched so far: game index -> ms launched."""
    return _tournament(tid, "started")


def tournament_finish_order(tid: str) -> str:
    """List of game indexes in the order their outcomes were recorded (stream positions)."""
    return _tournament(tid, "order")


def tournament_tick_lock(tid: str) -> str:
    """The lease of the one process advancing an open tournament (SET NX PX)."""
    return _tournament(tid, "tick")


def tournament_channel(tid: str) -> str:
    """Pub/sub channel told of each recorded outcome of a tournament (a hint)."""
    return f"{PREFIX}:notify:tournament:{tid}"


def tournaments_due() -> str:
    """Sorted set of open tournaments to advance (a game of theirs finished), scored by ms."""
    return f"{PREFIX}:index:tournaments:due"


def tournaments_by_created() -> str:
    """Sorted set of every tournament id, scored by creation time (ms)."""
    return f"{PREFIX}:index:tournaments"


def tournaments_running() -> str:
    """Set of the tournaments with unfinished games (what the sweep looks at)."""
    return f"{PREFIX}:index:tournaments:running"


# ----- the ladder (one log of rated games' results; ratings are its fold) ------------------
# Every key of the ladder carries the hash tag `{ladder}`: its scripts name them together.


def _ladder(part: str) -> str:
    return f"{PREFIX}:ladder:{{ladder}}:{part}"


def ladder_log() -> str:
    """The ladder's append-only list of entries (JSON, one per finished rated game); entry k
    (1-based) is ladder sequence number k."""
    return _ladder("log")


def ladder_games() -> str:
    """Hash: game id -> its ladder sequence number (written with the entry: once per game)."""
    return _ladder("games")


def ladder_cursor() -> str:
    """String: how many ladder entries the stored ratings have folded."""
    return _ladder("cursor")


def ladder_ratings(game: str) -> str:
    """Hash: participant id (ladder.entries.participant_id) -> JSON rating in game `game`."""
    return _ladder(f"ratings:{game}")


def ladder_board(game: str) -> str:
    """Sorted set: participant id -> ordinal in game `game` (the ratings listing's order)."""
    return _ladder(f"board:{game}")


def games_to_settle() -> str:
    """Sorted set of finished rated games whose result may not be in the ladder yet, scored
    by when they became due (ms) or, once a worker claimed one, until when its claim holds
    (an index over the logs, written with the finishing append)."""
    return f"{PREFIX}:index:to-settle"


# ----- RQ queues and job ids (only [A-Za-z0-9_-] in ids) ------------------------------------


def person_bot_queue_name() -> str:
    """The RQ queue of bot turns of games with a person seated (served first)."""
    return f"{PREFIX}-bots-person"


def bulk_bot_queue_name() -> str:
    """The RQ queue of bot turns of all-bot games (served after a person's games, fed one
    job at a time by the fair queue, store.fair_queue)."""
    return f"{PREFIX}-bots-bulk"


def tournament_queue_name() -> str:
    """The RQ queue of tournament jobs (served in turn with the bulk queue; at most one
    waiting job per tournament, so tournaments take turns)."""
    return f"{PREFIX}-tournaments"


def fair_lane(part: str) -> str:
    """A key of the bulk lane's fair queue on RQ's Redis (store.fair_queue): `ring` (sorted
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


# ----- accounts ------------------------------------------------------------------------------
# One account's keys carry the hash tag `{a:<lowercased name>}`; the key-hash index spans them.


def _account(folded_name: str, part: str) -> str:
    return f"{PREFIX}:account:{{a:{folded_name}}}:{part}"


def account(folded_name: str) -> str:
    """Hash: the account record (name as written, bot, webhook, key_hash, webhook_secret,
    created_at), one per name folded to lower case."""
    return _account(folded_name, "record")


def account_games(folded_name: str) -> str:
    """Sorted set of the games in which the account holds a seat, scored by creation (ms)."""
    return _account(folded_name, "games")


def account_games_of(folded_name: str, game: str) -> str:
    """Sorted set of the account's games of the game `game` (its profile counts them)."""
    return _account(folded_name, f"games:game:{game}")


def account_playing(folded_name: str) -> str:
    """Sorted set of the account's games in play (active or final round), by creation (ms)."""
    return _account(folded_name, "playing")


def account_skeleton(skeleton: str) -> str:
    """String: an account name's confusable skeleton (application.name_skeleton) -> the
    folded name holding it; a sign-up whose skeleton is held is refused."""
    return f"{PREFIX}:account-skeleton:{skeleton}"


def account_pattern() -> str:
    """SCAN pattern of every account record."""
    return f"{PREFIX}:account:*:record"


def account_webhook_error(folded_name: str) -> str:
    """String: JSON of the last failed webhook call of an account (its owner sees it in
    GET /v1/me; the public log only shows the turn's timeout at its deadline)."""
    return _account(folded_name, "webhook-error")


def account_key(key_hash: str) -> str:
    """String: SHA-256 hex of an account key -> the account's folded name."""
    return f"{PREFIX}:account-key:{key_hash}"


def account_streams(folded_name: str) -> str:
    """Sorted set of the account's held streams and long polls (slot id -> ms its lease
    ends, store.streams)."""
    return _account(folded_name, "streams")


# ----- notifications (pub/sub channels: hints that a log grew, never the truth) ----------------


def game_channel(game_id: str) -> str:
    """The channel told of every new version of a game (hash-tagged like its keys, so a
    sharded channel lives on the game's slot)."""
    return f"{PREFIX}:notify:game:{{{game_id}}}"


def account_turns_channel() -> str:
    """The doorbell of the webhook threads: told (on a standalone Redis, with the commit)
    whenever an account seat is to move. A hint: the threads also look every 50 ms."""
    return f"{PREFIX}:notify:account-turns"


def account_channel(folded_name: str) -> str:
    """The channel told of every new version of the games in which an account holds a seat."""
    return f"{PREFIX}:notify:account:{{a:{folded_name}}}"


# ----- challenges and two-board matches (issue 24 items 1 and 4) -------------------------------
# Every key shares the hash tag `{ch}`, so one challenge's Lua scripts (its record and the
# accounts' indexes together) stay legal on a Redis Cluster.


def challenge(challenge_id: str) -> str:
    """Hash: one challenge (its spec as JSON, status, who accepted, its game); expires an hour
    after it closed."""
    return f"{PREFIX}:{{ch}}:challenge:{challenge_id}"


def challenges_expiring() -> str:
    """Sorted set of the open challenges, scored by when they expire (ms)."""
    return f"{PREFIX}:{{ch}}:challenges:expiring"


def challenges_out(folded_name: str) -> str:
    """Sorted set of an account's open outgoing challenges (id -> ms it expires)."""
    return f"{PREFIX}:{{ch}}:challenges:out:{folded_name}"


def challenges_in(folded_name: str) -> str:
    """Sorted set of the open challenges naming an account (id -> ms it expires)."""
    return f"{PREFIX}:{{ch}}:challenges:in:{folded_name}"


def challenges_of(folded_name: str) -> str:
    """Sorted set of every recent challenge an account is part of (id -> ms it was made);
    what its event stream watches."""
    return f"{PREFIX}:{{ch}}:challenges:of:{folded_name}"


def challenge_calls() -> str:
    """Sorted set of the webhook calls of challenges due: "<id>:<folded account>" -> ms."""
    return f"{PREFIX}:{{ch}}:challenges:calls"


def challenges_accepted() -> str:
    """Sorted set of accepted challenges whose game may still need creating (id -> ms)."""
    return f"{PREFIX}:{{ch}}:challenges:accepted"


def match(match_id: str) -> str:
    """Hash: a two-board match (its spec as JSON, its games, its result)."""
    return f"{PREFIX}:{{ch}}:match:{match_id}"


def matches_running() -> str:
    """Sorted set of the matches not over yet (id -> ms created)."""
    return f"{PREFIX}:{{ch}}:matches:running"


# ----- rating history (issue 24, people: the account page's rating chart) --------------------


def ladder_history(game: str, participant: str) -> str:
    """Sorted set of an account's rating after each of its rated games of `game`, scored by
    ladder sequence number (members: ladder.history.HistoryPoint JSON). Written by the
    ladder's fold with the ratings; a rebuild rewrites it. Carries `{ladder}` like the
    ladder's keys, so the fold's script names it with them."""
    return _ladder(f"history:{game}:{participant}")


def ladder_history_pattern() -> str:
    """SCAN pattern of every rating history key."""
    return _ladder("history:*")


# ----- seeks (the rated pool: application.seeks, application.pairing) ----------------------
# Every key of the pool carries the hash tag `{seeks}`: a claim names several seeks at once.


def _seeks(part: str) -> str:
    return f"{PREFIX}:seeks:{{seeks}}:{part}"


def seek(seek_id: str) -> str:
    """Hash of one open seek: `data` (JSON: account, game, options, players, clock, rated,
    max_games, created_at, address), `since` (ms it last became free to pair) and `seen`
    (ms its account was last seen listening)."""
    return _seeks(f"seek:{seek_id}")


def seek_playing(seek_id: str) -> str:
    """Sorted set of the seek's claimed games still in play, scored by when claimed (ms)."""
    return _seeks(f"seek:{seek_id}:playing")


def seek_games(seek_id: str) -> str:
    """List of the ids of the newest games started from the seek (oldest first)."""
    return _seeks(f"seek:{seek_id}:games")


def seeks_open() -> str:
    """Sorted set of every open seek id, scored by creation (ms): what pairing reads."""
    return _seeks("open")


def seeks_of_account(folded_name: str) -> str:
    """Sorted set of an account's open seek ids, by creation (ms) (its bound, its list)."""
    return _seeks(f"account:{folded_name}")


def seeks_of_address(address: str) -> str:
    """Sorted set of the open seek ids created from one client address, by creation (ms)."""
    return _seeks(f"address:{address}")


def seek_recent(folded_name: str) -> str:
    """Sorted set of an account's recent pool opponents (participant ids), scored by when
    they were paired (ms): pairing prefers others while they are recent."""
    return _seeks(f"recent:{folded_name}")


def seeks_pass_lease() -> str:
    """The lease of the process running a pairing pass (SET NX PX)."""
    return _seeks("pass")


def seeks_channel() -> str:
    """The doorbell of the pairing threads: told when a seek opens (a hint)."""
    return f"{PREFIX}:notify:seeks"


# ----- arenas (issue 24 item 3: the always-on bot arena; keys of one arena carry {r:<id>}) ----


def _arena(aid: str, part: str) -> str:
    return f"{PREFIX}:arena:{{r:{aid}}}:{part}"


def arena_spec(aid: str) -> str:
    """JSON: the arena's spec (name, game, options, players, clock, window); written once."""
    return _arena(aid, "spec")


def arena_meta(aid: str) -> str:
    """Hash: closed_at (the operator closed it), finished_at (no game left), seq (games)."""
    return _arena(aid, "meta")


def arena_members(aid: str) -> str:
    """Hash: folded account name -> JSON {name, joined_at} of the bots that joined."""
    return _arena(aid, "members")


def arena_free(aid: str) -> str:
    """Sorted set: folded account name -> ms since it waits for a game (joined, not playing)."""
    return _arena(aid, "free")


def arena_busy(aid: str) -> str:
    """Hash: folded account name -> id of the arena game it plays."""
    return _arena(aid, "busy")


def arena_paused(aid: str) -> str:
    """Hash: folded account name -> ms it was paused (forfeited game after game)."""
    return _arena(aid, "paused")


def arena_streaks(aid: str) -> str:
    """Hash: folded account name -> games forfeited in a row."""
    return _arena(aid, "streaks")


def arena_running(aid: str) -> str:
    """Hash: game id -> JSON {accounts, created_at} of the arena's games not recorded yet."""
    return _arena(aid, "running")


def arena_games(aid: str) -> str:
    """Sorted set: every game id of the arena -> its sequence number."""
    return _arena(aid, "games")


def arena_board(aid: str) -> str:
    """Hash: folded account name -> JSON {name, games, wins, score, forfeits}."""
    return _arena(aid, "board")


def arena_recent(aid: str) -> str:
    """Hash: folded account name -> JSON list of its last game's opponents."""
    return _arena(aid, "recent")


def arena_feed(aid: str) -> str:
    """List: JSON line per recorded game, in the order recorded (its stream walks it)."""
    return _arena(aid, "feed")


def arena_channel(aid: str) -> str:
    """The channel told when an arena game is recorded or the arena ends."""
    return f"{PREFIX}:notify:arena:{{r:{aid}}}"


def arenas_by_created() -> str:
    """Sorted set: arena id -> ms created (GET /v1/arenas walks it)."""
    return f"{PREFIX}:arenas:by-created"


def arenas_live() -> str:
    """Set: ids of the arenas not over yet (the workers' arena pass walks it)."""
    return f"{PREFIX}:arenas:live"
