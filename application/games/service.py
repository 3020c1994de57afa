"""The use cases of games: create, join, play, read. Used by the API, the workers and the CLI.

One command, start to finish: the caller's token is verified against the seat's stored hash
first (application.accounts.auth); only then is the game decided for that seat, on this process's
newest copy when it has one (one round trip: the append), else after one load. The index is
written after an append succeeded, never before.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

import redis

from application.accounts import auth
from application.accounts.errors import AccountNotFound, Unauthenticated
from application.common.errors import UnknownGame
from application.common.ids import random_id
from application.games import seals, seating
from application.games.errors import (
    GameAlreadyOver,
    GameExpired,
    GameNotFound,
    GameNotStarted,
    IdempotencyKeyReused,
    InvalidClock,
    InvalidPlayers,
    InviteRequired,
    NoSuchSeat,
    SeatForfeited,
    SeatNeedsConsent,
    SeatUnavailable,
    UnratedSeat,
    VersionConflict,
)
from application.ladder import rated_pairs
from application.metrics import counters as metrics
from domain.bots import fallback_problem, logged_fallback
from domain.chance import SEED_BYTES, Chance, chance_of
from domain.errors import KeltisError
from domain.registry import game_names, get_rules
from gamelog import events as log_events
from gamelog.entries import Entry, make_batch
from gamelog.errors import CorruptLog
from gamelog.events import ENDED_ABORTED
from gamelog.record import DEFAULT_FALLBACK, GameRecord, fold_entries
from gamelog.results import is_aborted
from replays import build as replay_build
from store import keys
from store.accounts.records import AccountStore
from store.core.cache import LoadedGame, RecordCache
from store.core.clock import now_ms
from store.core.codec import text
from store.core.notify import Listener, Subscriber
from store.games import index, tokens
from store.games.commit import Committer
from store.games.eventstore import AppendRequest, AppendResult, AppendStatus, EventStore
from store.live.watch import VersionWatcher

log = logging.getLogger(__name__)

GAME_ID_BYTES = 16  # 128 random bits, URL-safe
INVITE_BYTES = 16  # a join code: 128 random bits, URL-safe
MAX_RETRIES = 8
WEBHOOK_MOVE_SECONDS = 10  # the clock of a game with a webhook seat and no clock of its own
WEBHOOK_MAX_TIMEOUTS = 3

# render(record_after, new_entries, seat) -> the JSON body answered to the caller.
Render = Callable[[GameRecord, list[Entry], int], dict]


def new_game_id() -> str:
    """A fresh random game id (128 bits, URL-safe)."""
    return random_id(GAME_ID_BYTES)


def ended_by(record: GameRecord) -> str:
    """What ended a finished game, for metrics: `aborted` (gamelog.results.is_aborted), the
    rule its result names (`ended_by`), the reason of an early end (`forfeit`,
    `cancelled`), else `rules` (the rules' ordinary end)."""
    if is_aborted(record):
        return ENDED_ABORTED
    if record.ended_early:
        return record.ended_early
    result = record.rules.result(record.state) if record.state is not None else None
    return (result or {}).get("ended_by") or "rules"


class BotScheduler(Protocol):
    """Where a bot turn that became due goes (application.operations.jobs.BotTurnQueue)."""

    def bot_due(self, record: GameRecord) -> None: ...


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP-ready answer to a move: status and body (the first one, for a repeated key)."""

    status: int
    body: dict
    repeated: bool = False


class GameService:
    """Commands and queries over games stored in Redis."""

    def __init__(
        self,
        client: redis.Redis,
        cache: RecordCache | None = None,
        clock: Callable[[], int] = now_ms,
        scheduler: BotScheduler | None = None,
    ):
        self.client = client
        self.store = EventStore(client)
        self.committer = Committer(self.store)
        self.cache = cache if cache is not None else RecordCache()
        self.clock = clock
        self.scheduler = scheduler
        self.notices = Subscriber(client)
        self.watcher = VersionWatcher(self.store, self.notices)
        self.accounts = AccountStore(client)

    # ----- queries -------------------------------------------------------------------

    @staticmethod
    def rules_for(game: str):
        """The rules of a game by name; UnknownGame when there is none."""
        if game not in game_names():
            raise UnknownGame(f"unknown game {game!r}")
        return get_rules(game)

    @staticmethod
    def available_bots() -> dict[str, list[str]]:
        """Bot names per game."""
        return {name: sorted(get_rules(name).bots) for name in game_names()}

    def load(
        self, game_id: str, idempotency_field: str | None = None
    ) -> tuple[GameRecord, dict[int, str], dict | None]:
        """The game at its newest version (one round trip), its token hashes, a prior answer."""
        loaded, prior = self.load_game(game_id, idempotency_field)
        return loaded.record, loaded.token_hashes, prior

    def load_game(
        self, game_id: str, idempotency_field: str | None = None
    ) -> tuple[LoadedGame, dict | None]:
        """The game and its token hashes at the newest version, and a prior answer."""
        cached = self.cache.get(game_id)
        if cached is None:  # from the stored snapshot, if the game has one
            read = self.store.load_latest(game_id, idempotency_field)
            record = read.base
            if record is None and not read.entries:
                raise GameNotFound("no game with this id")
        else:
            after = cached.record.version
            read = self.store.load(game_id, after, idempotency_field)
            if read.length < after:
                # The log is shorter than this process's copy: Redis lost its tail (a crash
                # without appendfsync always) or was restored from a backup. Re-read it all.
                self.cache.discard(game_id)
                return self.load_game(game_id, idempotency_field)
            record = cached.record
        if read.entries:
            record = fold_entries(record, game_id, read.entries)
        loaded = LoadedGame(record, read.token_hashes)
        self.cache.put(loaded)
        return loaded, read.prior_answer

    def seat_of(self, game_id: str, token: str | None, token_hashes: dict[int, str]) -> int | None:
        """The caller's seat from a bearer token (None without one).

        Unauthenticated for a token that matches no seat; WrongGameToken for a valid token
        of another game.
        """
        if token is None:
            return None
        claim = auth.claim_of(token)
        if claim.game_id != game_id:
            auth.refuse_foreign(self.store, claim)
        return auth.verify(claim, token_hashes).seat

    def read(
        self, game_id: str, token: str | None, seat: int | None = None
    ) -> tuple[GameRecord, int | None]:
        """The game at its newest version and the caller's verified seat (None: spectator).

        An account key is verified before the game is read; `seat` picks one of several
        seats the account holds (application.accounts.auth.account_seat)."""
        if auth.is_account_key(token):
            account = auth.account_of(self.accounts, token).name
            record, _, _ = self.load(game_id)
            return record, auth.account_seat(record, account, seat).seat
        record, token_hashes, _ = self.load(game_id)
        found = self.seat_of(game_id, token, token_hashes)
        found = auth.pick_seat([] if found is None else [found], seat)
        if found is None and record.tournament:
            seals.require_unsealed(self.client, record.tournament)
        return record, found

    def entries_after(self, game_id: str, after: int, limit: int) -> list[Entry]:
        """Stored entries after version `after` (at most `limit`)."""
        return self.store.load(game_id, after, limit=limit).entries

    def wait_for_version(self, game_id: str, after: int, wait_s: float) -> None:
        """Block up to `wait_s` seconds until the game's version exceeds `after`."""
        self.watcher.wait(game_id, after, wait_s)

    def listen_account(self, name: str) -> Listener:
        """A listener woken on each new version of a game the account holds a seat in."""
        return self.notices.listen(keys.account_channel(name.lower()))

    def list_games(self, status, game, after, limit):
        """A page of game summaries after a cursor position (store.games.index.list_games)."""
        found, position = index.list_games(
            self.client, status, game, after, limit, self.store.archive
        )
        return found, position.encode() if position else None

    def replay(self, game_id: str) -> dict:
        """The replay of a finished game; GameNotFound, or GameNotFinished for a live game
        (nothing of its hidden information is built, R2)."""
        entries = self.store.load(game_id).entries
        if not entries:
            raise GameNotFound("no game with this id")
        seals.require_unsealed(self.client, entries[0].event.get("tournament"))
        return replay_build.build_replay(game_id, entries)

    # ----- commands ------------------------------------------------------------------

    def create(
        self,
        game: str,
        players: list[dict],
        options: Mapping,
        game_id: str | None = None,
        seed: bytes | None = None,
        token: str | None = None,
        clock: Mapping | None = None,
        rated: bool = False,
        tournament: Mapping | None = None,
        allow_same_account: bool = False,
        consenting: frozenset[str] = frozenset(),
        aborts: bool = False,
    ) -> tuple[GameRecord, dict[int, str], dict[int, str]]:
        """A new game; returns its record, a token for each named human seat and the join
        code of each open seat created with `"invite": true`.

        `game_id` and `seed` are random unless a trusted caller derives them (tournaments:
        bots-only games); VersionConflict when a game of that id exists already. A seat
        `{"account": name}` is seated only with its consent (SeatNeedsConsent): its own key
        (`token`), or `consenting`: folded names of accounts that asked for this game
        themselves (a trusted caller's accepted challenge, seek pairing, arena entry; a
        tournament's entrants). `clock`: the turn clock (application.games.clocks), its fallback
        one of the game's bots. `tournament`: where a tournament's game stands in it
        (trusted callers only; gamelog.events.game_created). `rated`: the finished game goes
        into the ladder (application.games.settle); UnratedSeat unless every seat is an account, a
        built-in bot, or open (then joined only with an account key); the game is made
        unrated when its two accounts reached their daily limit (application.ladder.rated_pairs).
        An account takes one seat unless the game is unrated and `allow_same_account`
        (application.games.seating). `aborts`: an unrated game that is aborted as a rated
        one when a seat never moves (a two-board match's first game).
        """
        rules = self.rules_for(game)
        if tournament is not None:  # its entrants were entered when it was made (trusted)
            consenting = consenting | {p["account"].lower() for p in players if p.get("account")}
        players, webhooks = self._seat_accounts(players, token, consenting)
        _check_players(rules, players)
        seating.check_new_game(players, rated, allow_same_account)
        if rated:
            _check_rateable(players)
        if clock is None and webhooks:
            clock = webhook_clock(rules)
        problem = None if clock is None else fallback_problem(rules.bots, clock["fallback"])
        if problem is not None:
            raise InvalidClock(problem)
        if clock is not None:
            clock = {**clock, "fallback": logged_fallback(rules.bots, clock["fallback"])}
        options = rules.normalize_options(options)
        game_id = game_id or new_game_id()
        if rated and tournament is None:  # a pair's daily limit (a tournament's games: not)
            rated = rated_pairs.may_rate(self.client, game, players, game_id, self.clock())
        seed = seed if seed is not None else secrets.token_bytes(SEED_BYTES)
        invites = {
            seat: secrets.token_urlsafe(INVITE_BYTES)
            for seat, p in enumerate(players)
            if p.get("open") and p.get("invite")
        }
        invite_hashes = {seat: tokens.digest(code) for seat, code in invites.items()}
        events = [
            log_events.game_created(
                game,
                options,
                players,
                seed,
                invite_hashes,
                clock,
                tournament,
                rated,
                allow_same_account,
                aborts and not rated,
            )
        ]
        if not any(p.get("open") for p in players):
            events += rules.start(len(players), options, Chance(seed))
        seat_tokens = {
            seat: tokens.new_token(game_id, seat)
            for seat, p in enumerate(players)
            if not p.get("open") and not p.get("bot") and not p.get("account")
        }
        batch = make_batch(1, events, self.clock(), None, None)
        record = fold_entries(None, game_id, batch)
        hashes = {s: tokens.digest(t) for s, t in seat_tokens.items()}
        request = AppendRequest(game_id, 0, batch, new_token_hashes=hashes)
        result = self.committer.commit(request, record, None)
        if not result.ok:
            raise VersionConflict("a game with this id already exists", result.version or 0)
        self._committed(None, record, hashes)
        return record, seat_tokens, invites

    def _seat_accounts(
        self, players: list[dict], token: str | None, consenting: frozenset[str] = frozenset()
    ) -> tuple[list[dict], bool]:
        """The players with each account seat checked and named as its account is written
        (AccountNotFound, or SeatNeedsConsent for an account, a bot's too, seated without its
        key or consent), and whether an account seated has a webhook."""
        if not any(p.get("account") for p in players) and not auth.is_account_key(token):
            return players, False
        caller = auth.account_of(self.accounts, token) if auth.is_account_key(token) else None
        seated, webhooks = [], False
        for seat, player in enumerate(players):
            if not player.get("account"):
                seated.append(player)
                continue
            account = self.accounts.get(player["account"])
            if account is None:
                raise AccountNotFound(f"seat {seat}: no account {player['account']!r}")
            # A bot account too: seated by anyone, it was farmed (rated losses it never
            # agreed to play).
            own = caller is not None and caller.folded == account.folded
            if not own and account.folded not in consenting:
                raise SeatNeedsConsent(
                    f"seat {seat}: account {account.name!r} is seated only with its consent:"
                    " its own key, an accepted challenge (POST /v1/challenges), its seek or"
                    " its arena entry"
                )
            seated.append({"account": account.name, "name": account.name})
            webhooks = webhooks or account.webhook is not None
        return seated, webhooks

    def join(
        self,
        game_id: str,
        seat: int,
        name: str | None,
        invite: str | None = None,
        account_key: str | None = None,
    ) -> tuple[GameRecord, str | None]:
        """Take an open seat (with its join code, when it was opened with an invite); the game
        starts (same batch) when it was the last one. With an account key the seat is the
        account's, under its name, and no seat token is made: the key alone acts for it, so
        replacing the key leaves nothing that still reads the seat."""
        account, webhook = None, False
        if account_key is not None:
            holder = auth.account_of(self.accounts, account_key)
            account, webhook, name = holder.name, holder.webhook is not None, holder.name
        if name is None:
            raise Unauthenticated("joining takes a name or an account key")
        for _ in range(MAX_RETRIES):
            loaded, _ = self.load_game(game_id)
            record = loaded.record
            if not 0 <= seat < len(record.players):
                raise NoSuchSeat(f"this game has no seat {seat}")
            if record.expired:
                raise GameExpired("the game expired before its seats were taken")
            if record.cancelled:
                raise GameAlreadyOver("its creator cancelled the game")
            if not record.players[seat].get("open"):
                raise SeatUnavailable(f"seat {seat} is not open")
            if record.rated and account is None:
                raise UnratedSeat("a rated game's open seat is joined with an account key")
            seating.check_join(record, account)
            if record.players[seat].get("invite"):
                _check_invite(record.invites.get(seat), invite)
            clock = webhook_clock(record.rules) if webhook and record.clock is None else None
            events = [log_events.seat_joined(seat, name, account, clock)]
            if record.open_seats == [seat]:
                chance = Chance.from_hex(record.seed_hex)
                events += record.rules.start(len(record.players), record.options, chance)
            token = None if account is not None else tokens.new_token(game_id, seat)
            batch = make_batch(record.version + 1, events, self.clock(), None, None)
            after = fold_entries(record, game_id, batch)
            digest = {seat: tokens.digest(token)} if token is not None else {}
            request = AppendRequest(game_id, record.version, batch, new_token_hashes=digest)
            if self.committer.commit(request, after, record).ok:
                self._committed(record, after, digest)
                return after, token
        raise VersionConflict("the game is too busy; try again", record.version)

    def play(
        self,
        game_id: str,
        token: str | None,
        command: dict,
        render: Render,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        seat: int | None = None,
    ) -> Answer:
        """Apply one command of the token's seat; answer as `render` says (200).

        The token is verified before the game is decided for its seat: a forged token costs
        the same whatever the command (R2). An account key acts for the account's seat
        (`seat` picks one of several, application.accounts.auth.account_seat).
        """
        if token is None:
            raise Unauthenticated("a seat's bearer token is required")
        # Only a request with an Idempotency-Key needs its fingerprint (stored, compared).
        fingerprint = None
        if idempotency_key is not None:
            fingerprint = _fingerprint(command, expected_version)
        if auth.is_account_key(token):
            actor, loaded, prior, field = self._account_actor(game_id, token, seat, idempotency_key)
            fresh = True
        else:
            claim = auth.claim_of(token)
            if claim.game_id != game_id:
                auth.refuse_foreign(self.store, claim)
            field = f"{claim.seat}:{idempotency_key}" if idempotency_key is not None else None
            loaded, fresh, prior = self.cache.get(game_id), False, None
            if loaded is None or claim.seat not in loaded.token_hashes:
                (loaded, prior), fresh = self.load_game(game_id, field), True
            actor = auth.verify(claim, loaded.token_hashes)
            auth.pick_seat([actor.seat], seat)
        for _ in range(MAX_RETRIES):
            if prior is not None:
                return _repeat(prior, fingerprint)
            try:
                batch, after = self.decide(loaded.record, actor, command, expected_version)
            except KeltisError:
                if fresh:
                    raise
                # A copy of this process may be stale: decide again on the newest version.
                (loaded, prior), fresh = self.load_game(game_id, field), True
                continue
            body = render(after, batch, actor.seat)
            answer = {"fp": fingerprint, "status": 200, "body": body}
            result = self._append(loaded.record, after, batch, field, answer, actor)
            if result.ok:
                return Answer(200, body)
            if result.status is AppendStatus.DUPLICATE:
                return _repeat(result.first_answer, fingerprint)
            if result.status is AppendStatus.UNAUTHORIZED:
                raise Unauthenticated("the bearer token is not valid for this game")
            if expected_version is not None:
                raise VersionConflict.stale(expected_version, result.version)
            (loaded, prior), fresh = self.load_game(game_id, field), True
        raise VersionConflict("the game is too busy; try again", loaded.record.version)

    def _account_actor(
        self, game_id: str, key: str, seat: int | None, idempotency_key: str | None
    ) -> tuple[auth.Actor, LoadedGame, dict | None, str | None]:
        """An account key's actor in a game (the key verified first, then the newest version
        read), with the prior answer of its Idempotency-Key, if any."""
        account = auth.account_of(self.accounts, key).name
        loaded, _ = self.load_game(game_id)
        actor = auth.account_seat(loaded.record, account, seat)
        if idempotency_key is None:
            return actor, loaded, None, None
        field = f"{actor.seat}:{idempotency_key}"
        loaded, prior = self.load_game(game_id, field)
        return actor, loaded, prior, field

    def decide(
        self,
        record: GameRecord,
        actor: auth.Actor,
        command: dict,
        expected_version: int | None = None,
    ) -> tuple[list[Entry], GameRecord]:
        """The entries a verified actor's command appends and the record after them; raises
        the domain's errors (with their rule ids)."""
        if not record.started:
            raise GameNotStarted("the game waits for players to join")
        if record.ended_early:
            raise GameAlreadyOver("the game is over: a seat forfeited")
        if actor.seat in record.forfeited:
            raise SeatForfeited(f"seat {actor.seat} forfeited: its fallback bot plays for it")
        if expected_version is not None and expected_version != record.version:
            raise VersionConflict.stale(expected_version, record.version)
        chance = chance_of(record.seed_hex)
        events = record.rules.decide(record.state, actor.seat, command, chance)
        batch = make_batch(record.version + 1, events, self.clock(), actor.seat, dict(command))
        return batch, fold_entries(record, record.game_id, batch)

    def append_batch(self, before: GameRecord, batch: list[Entry], after: GameRecord) -> bool:
        """Append entries the service decided itself (bots) on `before`; False when the game
        moved on first."""
        return self._append(before, after, batch).ok

    def _append(
        self,
        before: GameRecord,
        after: GameRecord,
        batch: list[Entry],
        idempotency_field: str | None = None,
        answer: dict | None = None,
        actor: auth.Actor | None = None,
    ) -> AppendResult:
        token_check = None
        if actor is not None and actor.token_hash is not None:
            token_check = (actor.seat, actor.token_hash)
        request = AppendRequest(
            after.game_id,
            before.version,
            batch,
            idempotency_field,
            answer,
            token_check=token_check,
        )
        result = self.committer.commit(request, after, before)
        if result.ok:
            self._committed(before, after)
        elif result.status is AppendStatus.CONFLICT and result.version < before.version:
            self.cache.discard(after.game_id)  # the log lost its tail since the load
        return result

    def _committed(
        self, before: GameRecord | None, after: GameRecord, new_hashes: dict | None = None
    ) -> None:
        """After a successful commit (append, index, notification): count its entries,
        cache the new version (with the seats' token hashes) and hand a bot turn that
        became due to the scheduler."""
        metrics.entries_appended(after.game, after.version - (before.version if before else 0))
        if after.finished and not (before is not None and before.finished):
            metrics.game_ended(after.game, ended_by(after))
        known = self.cache.get(after.game_id)
        hashes = dict(known.token_hashes) if known is not None else {}
        self.cache.put(LoadedGame(after, {**hashes, **(new_hashes or {})}))
        if self.scheduler is not None and after.bot_to_move() and not after.finished:
            self.scheduler.bot_due(after)

    def refresh_index(self, record: GameRecord) -> None:
        """Write the index entries of one game afresh (listed unless its deal is sealed)."""
        listed = not seals.deal_sealed(self.client, record.tournament)
        self.committer.write_index(record, listed=listed)

    def rebuild_index(self) -> int:
        """Rewrite every index entry from the logs; returns the number of games."""
        count = 0
        for key in self._stored_logs():
            try:
                record, _, _ = self.load(keys.game_id_from_log_key(text(key)))
            except CorruptLog as error:
                log.warning("index rebuild skips %s: %s", text(key), error.message)
                continue
            self.refresh_index(record)
            count += 1
        return count

    def _stored_logs(self):
        """The key of every game's log: its live list or its compacted blob (a game caught
        between compaction's two steps has both: named once)."""
        yield from self.client.scan_iter(match=keys.log_pattern(), count=500)
        for key in self.client.scan_iter(match=keys.packed_pattern(), count=500):
            if not self.client.exists(keys.log(keys.game_id_from_log_key(text(key)))):
                yield key


def webhook_clock(rules) -> dict:
    """The clock of a game with a webhook account seated and no clock asked for: a webhook
    answers within WEBHOOK_MOVE_SECONDS or its turn times out."""
    fallback = DEFAULT_FALLBACK if DEFAULT_FALLBACK in rules.bots else sorted(rules.bots)[0]
    return {
        "move_seconds": WEBHOOK_MOVE_SECONDS,
        "bank_seconds": 0,
        "fallback": fallback,
        "max_timeouts": WEBHOOK_MAX_TIMEOUTS,
    }


def _check_players(rules, players: list[dict]) -> None:
    if not rules.min_players <= len(players) <= rules.max_players:
        raise InvalidPlayers(
            f"{rules.name} takes {rules.min_players} to {rules.max_players} players"
        )
    for seat, player in enumerate(players):
        bot = player.get("bot")
        if bot is not None and bot not in rules.bots:
            raise InvalidPlayers(f"seat {seat}: unknown bot {bot!r}")
        if player.get("open") and (player.get("name") or bot):
            raise InvalidPlayers(f"seat {seat}: an open seat has no name or bot")
        if not player.get("open") and not (player.get("name") or bot):
            raise InvalidPlayers(f"seat {seat}: a seat needs a name, a bot or open: true")


def _check_rateable(players: list[dict]) -> None:
    """UnratedSeat for a seat a rated game cannot rate: a person without an account."""
    for seat, player in enumerate(players):
        if not (player.get("account") or player.get("bot") or player.get("open")):
            raise UnratedSeat(
                f"seat {seat}: a rated game seats accounts, built-in bots and open seats"
                " (joined with an account key) only"
            )


def _check_invite(stored_digest: str | None, code: str | None) -> None:
    """InviteRequired unless `code` is the seat's join code (constant-time compare)."""
    if code is None or stored_digest is None:
        raise InviteRequired("this seat is joined with its join code (invite)")
    if not hmac.compare_digest(tokens.digest(code), stored_digest):
        raise InviteRequired("the join code (invite) is not this seat's")


def _fingerprint(command: dict, expected_version: int | None) -> str:
    canonical = json.dumps([command, expected_version], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _repeat(prior: dict, fingerprint: str) -> Answer:
    if prior.get("fp") != fingerprint:
        raise IdempotencyKeyReused("this Idempotency-Key was used for another request")
    return Answer(prior["status"], prior["body"], repeated=True)
