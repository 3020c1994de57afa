"""One pairing pass over the rated pool (a worker's periodic pass, workers.pairing):

1. release the claims of games that are over (a seek is free again below its max_games),
   and of games never created (a pass that died between claim and create);
2. close the seeks whose account stopped listening (no event stream, no answering webhook)
   so that none outlives its account's last sighting by more than the grace (closed a
   CLOSE_MARGIN_MS early: the pass's period and its own lag); note the others as seen;
3. pair the free seeks (application.seeks.pairing: ratings from the ladder, recent opponents);
4. for each table: claim its seeks atomically (store.seeks.records: one script, all or none, so a
   racing pass cannot seat a seek twice), then create the game through GameService
   (rated as the seek says; the seated accounts hear `game_started` on their streams). A
   table with built-in pool bots (application.seeks.pool_bots) charges their CPU estimate
   to the seeker's account budget (application.budget.service) first; a refusal leaves the
   seek waiting.

Settings (environment): KELTIS_POOL_BOTS (the five levels by default; "none": no bots),
KELTIS_POOL_BOT_WAIT_S (5), KELTIS_SEEK_BASE_RANGE (3 ordinal points),
KELTIS_SEEK_WIDEN_PER_S (0.5), KELTIS_SEEK_REPEAT_WINDOW_S (600),
KELTIS_SEEK_SHARED_NETWORKS (none: client networks whose accounts may meet, such as a
club's NAT or a test stack's loopback), and the bounds of application.seeks.service.
"""

from __future__ import annotations

import ipaddress
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

import settings
from application.bots import webhook_probe
from application.budget import service as budget
from application.budget.service import Budgets, Payer, Ticket
from application.games.service import GameService
from application.seeks import pairing, pool_bots
from application.seeks.service import SeekBounds
from application.webhooks.policy import Network, WebhookPolicy, parse_allow, policy_from_env
from domain.errors import KeltisError
from ladder.entries import participant_id
from store import keys
from store.budget.records import BudgetStore
from store.games.index import IN_PLAY
from store.seeks.records import SeekStore, StoredSeek, in_play, listening

log = logging.getLogger(__name__)

MAX_SEEKS = 5000  # open seeks one pass reads
CREATE_GRACE_MS = 30_000  # a claim whose game does not exist after this is released
SEEN_EVERY_MS = 1_000  # a live seek's `seen` is written at most this often
LEASE_MS = 3_000  # a pass killed midway holds the others up this long at most
# A seek is closed this much before its grace runs out: the next pass comes up to a period
# (1 s) later and may itself lag, and the grace is promised as a bound, not a minimum.
CLOSE_MARGIN_MS = 2_000


@dataclass(frozen=True, slots=True)
class PoolSettings:
    """The pairing rules, the bounds, how long recent opponents are avoided, and the
    client networks whose accounts may sit together."""

    rules: pairing.PairingRules = field(default_factory=pairing.PairingRules)
    bounds: SeekBounds = field(default_factory=SeekBounds)
    repeat_window_ms: int = int(pairing.DEFAULT_REPEAT_WINDOW_S * 1000)
    shared: tuple[Network, ...] = ()

    def household(self, address: str) -> str:
        """The seek's household for pairing ("": none, in a shared network)."""
        if any(address_in(address, network) for network in self.shared):
            return ""
        return pairing.household(address)

    @classmethod
    def from_env(cls) -> PoolSettings:
        configured = settings.current()
        rules = pool_bots.rules_from_env()
        window_ms = int(configured.seek_repeat_window_s * 1000)
        shared = parse_allow(configured.seek_shared_networks)
        return cls(rules, SeekBounds.from_env(), window_ms, shared)


@dataclass
class PassResult:
    """What a pass did: games created (ids), seeks closed (ids)."""

    games: list[str] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    skipped: bool = False


class PairingPass:
    """Runs pairing passes over one service (its clock is the pool's clock)."""

    def __init__(
        self,
        service: GameService,
        settings: PoolSettings | None = None,
        budgets: Budgets | None = None,
        rng: random.Random | None = None,
        lease: bool = True,
        policy: WebhookPolicy | None = None,
    ):
        self.service = service
        self.settings = settings or PoolSettings.from_env()
        self.budgets = budgets
        self.store = SeekStore(service.client)
        self.rng = rng or random.SystemRandom()
        self.lease = lease
        self.owner = secrets.token_hex(8)
        self.policy = policy or policy_from_env(service.client)

    @property
    def clock(self) -> Callable[[], int]:
        return self.service.clock

    def run(self) -> PassResult:
        """One pass (skipped while another process holds the pass's lease)."""
        if self.lease and not self.store.take_pass(self.owner, LEASE_MS):
            return PassResult(skipped=True)
        try:
            return self._run()
        finally:
            if self.lease:
                self.store.end_pass(self.owner)

    def _run(self) -> PassResult:
        result = PassResult()
        seeks = self.store.load(self.store.open_ids(MAX_SEEKS))
        if not seeks:
            return result
        now = self.clock()
        seeks = self._release_claims(seeks, now)
        live = self._live(seeks, now, result)
        free = [s for s in live if len(s.playing) < int(s.data["max_games"])]
        if not free:
            return result
        candidates = self._candidates(free, now)
        by_id = {s.id: s for s in free}
        rules = self.settings.rules
        tables = pairing.tables(candidates, rules)
        seated = {c.seek_id for t in tables for c in t.seeks}
        waiting = [c for c in candidates if c.seek_id not in seated]
        if rules.pool_bots and waiting:
            tables += pairing.bot_tables(
                waiting, rules, self._pool_bots(waiting), self._bot_ordinals(waiting)
            )
        for table in tables:
            game_id = self._seat(table, [by_id[c.seek_id] for c in table.seeks])
            if game_id is not None:
                result.games.append(game_id)
        return result

    # ----- the steps ---------------------------------------------------------------------

    def _release_claims(self, seeks: list[StoredSeek], now: int) -> list[StoredSeek]:
        claims = [(s.folded, game) for s in seeks for game in s.playing]
        if not claims:
            return seeks
        states = in_play(self.service.client, claims)
        kept = []
        for found in seeks:
            playing = dict(found.playing)
            for game, claimed in found.playing.items():
                state = states[(found.folded, game)]
                missing = state == "missing" and now - claimed > CREATE_GRACE_MS
                if state == "over" and self._still_in_play(game):
                    continue
                if state == "over" or missing:
                    self.store.release(found.id, game, now, forget=missing)
                    del playing[game]
            kept.append(StoredSeek(found.id, found.data, found.since, found.seen, playing))
        return kept

    def _still_in_play(self, game_id: str) -> bool:
        """Whether the game's own log says it is in play. The accounts' index is written
        after the log, so a game another pass is creating right now looks over by the index
        alone; its claim must not be given back (the seek would be seated twice)."""
        try:
            record = self.service.load_game(game_id)[0].record
        except KeltisError:
            return False
        return record.status in IN_PLAY

    def _live(self, seeks: list[StoredSeek], now: int, result: PassResult) -> list[StoredSeek]:
        """The seeks whose account listens now (or answers its webhook); closes those
        silent longer than the grace."""
        heard = listening(self.service.client, (s.folded for s in seeks), now)
        live, seen = [], {}
        silent_ms = max(0, self.settings.bounds.grace_ms - CLOSE_MARGIN_MS)
        webhooks: dict[str, bool] = {}
        for found in seeks:
            alive = found.folded in heard
            if not alive:
                if found.folded not in webhooks:
                    webhooks[found.folded] = self._webhook_answers(found, now)
                alive = webhooks[found.folded]
            if alive:
                live.append(found)
                if now - found.seen >= SEEN_EVERY_MS:
                    seen[found.id] = now
            elif now - found.seen > silent_ms and self.store.close(found):
                result.closed.append(found.id)
        self.store.seen(seen)
        return live

    def _webhook_answers(self, found: StoredSeek, now: int) -> bool:
        """Whether the account's webhook answered lately, or answers a probe now (one per
        account per application.bots.webhook_probe.PROBE_EVERY_MS at most when it does not)."""
        account = self.service.accounts.get(found.folded)
        if account is None or not account.webhook:
            return False
        return webhook_probe.connected(self.service.client, self.policy, account, now)

    def _candidates(self, free: list[StoredSeek], now: int) -> list[pairing.Candidate]:
        ladder = self._ladder()
        wanted = {(s.data["game"], participant_id(s.account, bot=False)) for s in free}
        ratings = ladder.ratings(wanted)
        since = now - self.settings.repeat_window_ms
        recent = self.store.recent((s.folded for s in free), since)
        return [
            pairing.Candidate(
                s.id,
                pairing.pool_key(s.data),
                s.folded,
                s.account,
                int(s.data["players"]),
                _ordinal(ratings.get((s.data["game"], participant_id(s.account, bot=False)))),
                max(0, now - s.since),
                frozenset(recent.get(s.folded, ())),
                self.settings.household(s.data.get("address", "")),
            )
            for s in free
        ]

    def _pool_bots(self, waiting: list[pairing.Candidate]) -> dict[tuple, list[str]]:
        rules = self.settings.rules
        return {c.pool: pool_bots.offered(self.service, c.pool[0], rules) for c in waiting}

    def _bot_ordinals(self, waiting: list[pairing.Candidate]) -> dict[tuple[str, str], float]:
        games = {c.pool[0] for c in waiting}
        return pool_bots.ordinals(self._ladder(), games, self.settings.rules.pool_bots)

    def _ladder(self):
        from store.ladder.records import LadderStore

        return LadderStore(self.service.client)

    def _seat(self, table: pairing.Table, seeks: list[StoredSeek]) -> str | None:
        """Claim the table's seeks and create its game; the game's id, or None (a seek was
        taken by another pass, or the game could not be made)."""
        game_id = self.service_game_id()
        now = self.clock()
        if self.store.claim(seeks, game_id, now) != 0:
            return None
        first = seeks[0]
        data = first.data
        players = [{"account": s.account} for s in seeks]
        used: dict[str, int] = {}
        for bot in table.bots:
            used[bot] = used.get(bot, 0) + 1
            players.append({"name": bot if used[bot] == 1 else f"{bot}-{used[bot]}", "bot": bot})
        self.rng.shuffle(players)  # seat order: chance decides
        ticket = None
        try:
            if table.bots:
                ticket = self._charge(first, data["game"], players)
            if ticket is not None:  # before the game: its first bot turn notes its CPU here
                BudgetStore(self.service.client).open_record(
                    keys.game_creator(game_id),
                    *budget.ticket_charge(ticket),
                    payer=ticket.payer.id,
                    limits=budget.ticket_limits(ticket),
                )
            self.service.create(
                data["game"],
                players,
                data["options"],
                game_id=game_id,
                clock=data["clock"],
                rated=data["rated"],
                consenting=frozenset(s.folded for s in seeks),
            )
        except KeltisError as error:
            log.info("seek %s: no game made (%s)", first.id, error)
            if ticket is not None and self.budgets is not None:
                self.budgets.refund(ticket)
                self.service.client.delete(keys.game_creator(game_id))
            for found in seeks:
                self.store.release(found.id, game_id, now, forget=True)
            return None
        self._note_opponents(seeks, table.bots, now)
        return game_id

    @staticmethod
    def service_game_id() -> str:
        return secrets.token_urlsafe(16)

    def _charge(self, seeker: StoredSeek, game: str, players: list[dict]) -> Ticket | None:
        """The pool bots' CPU estimate, charged to the seeker's account (CpuBudgetExceeded
        when it does not fit)."""
        if self.budgets is None:
            return None
        return self.budgets.admit(Payer.of("", seeker.folded), budget.game_seconds(game, players))

    def _note_opponents(self, seeks: list[StoredSeek], bots: tuple[str, ...], now: int) -> None:
        everyone = [participant_id(s.account, bot=False) for s in seeks]
        everyone += [participant_id(bot, bot=True) for bot in bots]
        pairs = {
            s.folded: [p for p in everyone if p != participant_id(s.account, bot=False)]
            for s in seeks
        }
        self.store.note_opponents(pairs, now, self.settings.repeat_window_ms)


def address_in(address: str, network: Network) -> bool:
    """Whether a client address lies in `network` (a malformed one never does)."""
    try:
        return ipaddress.ip_address(address) in network
    except ValueError:
        return False


def _ordinal(rating) -> float:
    """A rating's ordinal; an unrated account's is a new rating's (0)."""
    return 0.0 if rating is None else rating.ordinal
