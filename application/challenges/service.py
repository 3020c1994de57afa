"""Challenges: an account invites accounts or built-in bots to a game; each account
challenged accepts or declines (with a reason from a fixed list); the challenger may cancel;
an open challenge expires. Accepting (the last invitee's accept) creates an ordinary game
(GameService.create) with the challenge's options, clock and seat order, charged to the
challenger's bot CPU budget; a challenge naming built-in bots only is accepted at once.

A challenge is a small record with an expiry (store.challenges.records), not a game log; each
change that closes it is one Lua script, so accept, decline, cancel and expiry racing on
one challenge have exactly one winner. Every change wakes the event streams of everyone in
it (application.challenges.events reads what changed).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass

import settings
from application.accounts.errors import AccountNotFound
from application.challenges.errors import (
    ChallengeClosed,
    ChallengeCooldown,
    ChallengeNotFound,
    ChallengesRefused,
    InvalidChallenge,
    NotYourChallenge,
    TooManyChallenges,
)
from application.common.ids import random_id
from application.games.errors import InvalidClock, InvalidPlayers, VersionConflict
from application.games.service import GameService, new_game_id
from application.ladder.ratings import account_ratings
from application.tournaments import matches
from domain.bots import fallback_problem
from domain.errors import KeltisError
from store.accounts.records import AccountRecord
from store.challenges.records import LISTED, ChallengeStore, Cooling, Full, PairOpen, Stored

log = logging.getLogger(__name__)

ID_BYTES = 12
DEFAULT_EXPIRES_S = 300
MIN_EXPIRES_S, MAX_EXPIRES_S = 10, 3600
DEFAULT_OUT, DEFAULT_IN, DEFAULT_COOLDOWN_S = 10, 20, 600
REPLACE_TRIES = 4  # a new challenge replacing the pair's open one, racing others
REPAIR_AFTER_MS = 5_000  # an accepted challenge without its game by then: created again
DECLINE_REASONS = (
    "generic", "later", "too_fast", "too_slow", "time_control", "rated", "casual", "game",
    "board", "no_bot", "only_bot",
)  # fmt: skip
SEAT_ORDERS = ("random", "given")
MATCHES = ("single", matches.TWO_BOARDS)


@dataclass(frozen=True, slots=True)
class Limits:
    """Open challenges per account: outgoing (KELTIS_CHALLENGES_OPEN_PER_ACCOUNT, 10) and
    incoming (KELTIS_CHALLENGES_INCOMING_PER_ACCOUNT, 20); after a decline, how long its
    challenger waits to challenge that account again (KELTIS_CHALLENGE_DECLINE_COOLDOWN_S,
    600 s)."""

    outgoing: int = DEFAULT_OUT
    incoming: int = DEFAULT_IN
    cooldown_s: int = DEFAULT_COOLDOWN_S

    @classmethod
    def from_env(cls) -> Limits:
        configured = settings.current()
        return cls(
            configured.challenges_open_per_account,
            configured.challenges_incoming_per_account,
            configured.challenge_decline_cooldown_s,
        )


class Charger:
    """Charges a challenge's games' bot work to its challenger (application.challenges.budget
    does it for real); this one charges nothing."""

    def charge(self, stored: Stored, players: list[dict], games: int):
        return None

    def refund(self, ticket) -> None:
        return None

    def created(self, stored: Stored, game_ids: list[str], ticket) -> None:
        return None


def present(stored: Stored) -> dict:
    """The Challenge as the API shows it. An accepted challenge whose game is not made yet
    (the accepting process is between the two steps, or was cut short and the workers'
    repair will make it) still shows as open, without a game id: a client that sees
    "accepted" can open its game at once."""
    spec = stored.spec
    status = stored.shown_status
    names = {spec["challenger"].lower(): spec["challenger"]}
    names.update({o["account"].lower(): o["account"] for o in spec["opponents"] if "account" in o})
    return {
        "id": stored.id,
        "status": status,
        "challenger": spec["challenger"],
        "opponents": spec["opponents"],
        "game": spec["game"],
        "options": spec["options"],
        "players": len(spec["opponents"]) + 1,
        "clock": spec["clock"],
        "rated": spec["rated"],
        "seat_order": spec["seat_order"],
        "match": spec["match"],
        "created_at": spec["created_at"],
        "expires_at": stored.expires_at,
        "game_id": stored.game_id if status == "accepted" else None,
        "match_id": stored.match_id,
        "decline_reason": stored.decline_reason,
        "accepted_by": [names.get(n, n) for n in stored.accepted_by],
    }


class Challenges:
    """The challenge use cases over one GameService."""

    def __init__(
        self,
        service: GameService,
        limits: Limits | None = None,
        charger: Charger | None = None,
        shuffle: Callable[[list], None] | None = None,
    ):
        self.service = service
        self.store = ChallengeStore(service.client)
        self.limits = limits or Limits()
        self.charger = charger or Charger()
        self.shuffle = shuffle or secrets.SystemRandom().shuffle

    # ----- opening -----------------------------------------------------------------------

    def open(self, challenger: AccountRecord, body: dict) -> dict:
        """Open a challenge (body as api.challenges.schemas loads it); accepted at once when
        it names built-in bots only."""
        opponents, webhooks = self._opponents(challenger, body)
        rules = self.service.rules_for(body["game"])
        players = len(opponents) + 1
        if not rules.min_players <= players <= rules.max_players:
            raise InvalidPlayers(
                f"{rules.name} takes {rules.min_players} to {rules.max_players} players"
            )
        for opponent in opponents:
            if "bot" in opponent and opponent["bot"] not in rules.bots:
                raise InvalidPlayers(f"unknown bot {opponent['bot']!r}")
        options = dict(body.get("options") or {})
        if body["match"] == matches.TWO_BOARDS:
            matches.check_game(body["game"], options)
        options = rules.normalize_options(options)
        clock = body.get("clock")
        problem = None if clock is None else fallback_problem(rules.bots, clock["fallback"])
        if problem is not None:
            raise InvalidClock(problem)
        now = self.service.clock()
        spec = {
            "challenger": challenger.name,
            "opponents": opponents,
            "game": body["game"],
            "options": options,
            "clock": clock,
            "rated": body["rated"],
            "seat_order": body["seat_order"],
            "match": body["match"],
            "created_at": now,
        }
        challenge_id = random_id(ID_BYTES)
        expires_at = now + 1000 * body["expires_in_s"]
        invitees = [o["account"] for o in opponents if "account" in o]
        ticket = None
        if not invitees:  # built-in bots only: accepted at once, charged before anything
            ticket = self.charger.charge(_preview(spec), self._players(spec), _games(spec))
        try:
            self._create(challenger, challenge_id, spec, now, expires_at, webhooks)
        except Full as full:
            self.charger.refund(ticket)
            raise self._full(full, invitees) from None
        except BaseException:
            self.charger.refund(ticket)
            raise
        stored = self.store.get(challenge_id)
        self.store.notify(stored)
        if invitees:
            return present(stored)
        try:
            return present(self._accepted(stored, challenger.folded, ticket))
        except BaseException:
            self.charger.refund(ticket)
            raise

    def _create(self, challenger, challenge_id, spec, now, expires_at, webhooks) -> None:
        """Store the challenge, replacing the challenger's open one to the same account
        (cancelled as the challenger would); ChallengeCooldown when one declined lately."""
        invitees = [o["account"] for o in spec["opponents"] if "account" in o]
        for _ in range(REPLACE_TRIES):
            try:
                self.store.create(
                    challenge_id, spec, now, expires_at, self.limits.outgoing,
                    self.limits.incoming, webhooks,
                )  # fmt: skip
                return
            except Cooling as cooling:
                name = invitees[cooling.index - 1]
                wait_s = max(1, -(-cooling.left_ms // 1000))
                raise ChallengeCooldown(
                    f"{name!r} declined a challenge of yours lately; try again in {wait_s} s",
                    wait_s,
                ) from None
            except PairOpen as pair:
                self._replace(challenger, pair.existing)
        raise TooManyChallenges("challenges to this account are changing fast; try again")

    def _replace(self, challenger: AccountRecord, existing: str) -> None:
        """Cancel the challenger's open challenge `existing` (a new one to the same account
        takes its place), heard on the streams and webhooks as any cancel. Closed meanwhile
        (accepted, declined, replaced by a racing call), it is left as it is: the opening
        script sees the pair free once it is no longer open."""
        stored = self.store.get(existing)
        if stored is not None and stored.status in LISTED:  # one being opened too
            change = self.store.change(stored, "cancel", challenger.folded, self.service.clock())
            if change.ok or change.expired_now:
                self.store.notify(stored)

    def _opponents(self, challenger: AccountRecord, body: dict) -> tuple[list[dict], list[str]]:
        """The opponents named as their accounts write them, and the folded names of those
        with a webhook; InvalidChallenge for oneself or an account twice."""
        seen, opponents, webhooks = {challenger.folded}, [], []
        for opponent in body["opponents"]:
            if "bot" in opponent:
                opponents.append({"bot": opponent["bot"]})
                continue
            account = self.service.accounts.get(opponent["account"])
            if account is None:
                raise AccountNotFound(f"no account {opponent['account']!r}")
            if account.folded == challenger.folded:
                raise InvalidChallenge("an account does not challenge itself")
            if account.folded in seen:
                raise InvalidChallenge(f"account {account.name!r} is challenged twice")
            self._check_accepts(challenger, account)
            seen.add(account.folded)
            opponents.append({"account": account.name})
            if account.webhook:
                webhooks.append(account.folded)
        return opponents, webhooks

    def _check_accepts(self, challenger: AccountRecord, account: AccountRecord) -> None:
        """ChallengesRefused when `account` takes no challenges from `challenger`: its
        setting (public on its profile) is `nobody`, or `rated` and the challenger has no
        rating on the ladder."""
        whom = account.accepts_challenges
        if whom == "nobody":
            raise ChallengesRefused(f"{account.name!r} accepts no challenges")
        if whom == "rated" and not account_ratings(self.service.client, challenger.name):
            raise ChallengesRefused(
                f"{account.name!r} accepts challenges from rated players only: play a rated "
                "game first"
            )

    def _full(self, full: Full, invitees: list[str]) -> TooManyChallenges:
        if full.side == "out":
            return TooManyChallenges(f"at most {self.limits.outgoing} open challenges per account")
        name = invitees[(full.index or 1) - 1]
        return TooManyChallenges(f"{name!r} has {self.limits.incoming} open challenges; try later")

    # ----- reading -----------------------------------------------------------------------

    def get(self, account: AccountRecord, challenge_id: str) -> dict:
        """A challenge its challenger or challenged reads (ChallengeNotFound for others)."""
        return present(self._load(account, challenge_id))

    def listing(self, account: AccountRecord, direction: str) -> list[dict]:
        """The account's open incoming or outgoing challenges."""
        now = self.service.clock()
        ids = self.store.open_ids(account.folded, direction, now)
        found = [s for s in self.store.get_many(ids) if s is not None and s.status == "open"]
        return [present(s) for s in sorted(found, key=lambda s: s.spec["created_at"])]

    def _load(self, account: AccountRecord, challenge_id: str) -> Stored:
        stored = self.store.get(challenge_id)
        if stored is None or not stored.involves(account.folded):
            raise ChallengeNotFound("no challenge with this id")
        if stored.status == "open" and stored.expires_at <= self.service.clock():
            self.expire(stored)  # lazily, on read
            stored = self.store.get(challenge_id) or stored
        return stored

    # ----- answers -----------------------------------------------------------------------

    def accept(self, account: AccountRecord, challenge_id: str) -> dict:
        stored = self._load(account, challenge_id)
        return present(self.accept_stored(stored, account.folded))

    def accept_stored(self, stored: Stored, folded: str) -> Stored:
        """Accept as `folded` (an invitee); the last accept creates the game."""
        if folded not in stored.invitees:
            raise NotYourChallenge("only the challenged accept a challenge")
        final = set(stored.accepted_by) | {folded} == set(stored.invitees)
        ticket = None
        if final and stored.status == "open":
            ticket = self.charger.charge(stored, self._players(stored.spec), _games(stored.spec))
        try:
            return self._accepted(stored, folded, ticket)
        except BaseException:
            self.charger.refund(ticket)
            raise

    def _accepted(self, stored: Stored, folded: str, ticket) -> Stored:
        game_id = new_game_id()
        change = self.store.change(stored, "accept", folded, self.service.clock(), game_id)
        self._check(stored, change)
        if change.status != "accepted":
            self.charger.refund(ticket)
            self.store.notify(stored)
            return self.store.get(stored.id) or stored
        after = self.store.get(stored.id)
        self.start_game(after, ticket)
        self.store.notify(after)
        return self.store.get(stored.id) or after

    def decline(self, account: AccountRecord, challenge_id: str, reason: str) -> dict:
        stored = self._load(account, challenge_id)
        return present(self.decline_stored(stored, account.folded, reason))

    def decline_stored(self, stored: Stored, folded: str, reason: str) -> Stored:
        if folded not in stored.invitees:
            raise NotYourChallenge("only the challenged decline a challenge")
        change = self.store.change(stored, "decline", folded, self.service.clock(), reason)
        self._check(stored, change)
        self.store.cool_down(stored.challenger, folded, 1000 * self.limits.cooldown_s)
        self.store.notify(stored)
        return self.store.get(stored.id) or stored

    def cancel(self, account: AccountRecord, challenge_id: str) -> dict:
        stored = self._load(account, challenge_id)
        if account.folded != stored.challenger:
            raise NotYourChallenge("only the challenger cancels a challenge")
        change = self.store.change(stored, "cancel", account.folded, self.service.clock())
        self._check(stored, change)
        self.store.notify(stored)
        return present(self.store.get(stored.id) or stored)

    def expire(self, stored: Stored) -> bool:
        """Expire a challenge past its expiry; whether this call did."""
        change = self.store.change(stored, "expire", "", self.service.clock())
        if change.ok or change.expired_now:
            self.store.notify(stored)
            return True
        return False

    def _check(self, stored: Stored, change) -> None:
        if change.ok:
            return
        if change.expired_now:
            self.store.notify(stored)
        if change.outcome == "missing":
            raise ChallengeNotFound("no challenge with this id")
        if change.outcome == "closed":
            raise ChallengeClosed(change.status or "closed")
        if change.outcome == "already":
            raise ChallengeClosed("accepted by this account")
        raise NotYourChallenge("this account may not do that to this challenge")

    # ----- the game ----------------------------------------------------------------------

    def _players(self, spec: dict) -> list[dict]:
        """The seats in the challenge's order: the challenger first, then the opponents."""
        return [{"account": spec["challenger"]}, *spec["opponents"]]

    def start_game(self, stored: Stored, ticket=None) -> None:
        """Create an accepted challenge's game (and its match): safe to repeat, a game of
        that id existing already is the one made before."""
        spec = stored.spec
        players = self._players(spec)
        if spec["seat_order"] == "random":
            self.shuffle(players)
        two_boards = spec["match"] == matches.TWO_BOARDS
        options = matches.first_options(spec["options"]) if two_boards else spec["options"]
        seed = None
        if two_boards:  # both games from the match's secret (application.tournaments.matches)
            secret = matches.match_secret(self.service.client, matches.match_id_of(stored.id))
            seed = matches.board_seed(secret, matches.BOARDS[0])
        try:
            record, _, _ = self.service.create(
                spec["game"],
                players,
                options,
                game_id=stored.game_id,
                seed=seed,
                clock=spec["clock"],
                rated=spec["rated"] and not two_boards,
                consenting=_accounts(players),
                aborts=two_boards,  # a seat that never moves voids the match: the game says so
            )
        except VersionConflict:
            record = self.service.load(stored.game_id)[0]
        else:
            ids = [stored.game_id] + (
                [matches.second_game_id(stored.game_id)] if two_boards else []
            )
            self.charger.created(stored, ids, ticket)
        if two_boards:
            match_id = matches.open_match(self.service.client, stored.id, spec, record)
            self.store.set_match(stored.id, match_id)
        self.store.game_made(stored.id)

    # ----- the workers' pass -------------------------------------------------------------

    def expire_due(self, limit: int = 100) -> int:
        """Expire the open challenges past their expiry; how many this call expired."""
        now = self.service.clock()
        expired = 0
        due = self.store.expired_ids(now, limit)
        for challenge_id, stored in zip(due, self.store.get_many(due), strict=True):
            if stored is not None and stored.status == "open":
                expired += self.expire(stored)
            else:  # closed by a process that died before taking it out of the set
                self.store.not_expiring(challenge_id)
        return expired

    def repair_accepted(self) -> None:
        """Create the games of accepted challenges whose creation was cut short."""
        before = self.service.clock() - REPAIR_AFTER_MS
        for challenge_id in self.store.accepted_ids(before):
            stored = self.store.get(challenge_id)
            if stored is not None and stored.status == "open":
                self.store.still_open(challenge_id, self.service.clock())  # accepted in part
                continue
            if stored is None or stored.game_id is None or not stored.game_pending:
                self.store.game_made(challenge_id)
                continue
            try:
                self.start_game(stored)
            except KeltisError as error:
                log.warning("challenge %s: its game cannot be made: %s", challenge_id, error)
                self.store.game_made(challenge_id)


def _preview(spec: dict) -> Stored:
    """An unsaved challenge of `spec` (for charging before it is written)."""
    return Stored("", spec, "open", (), None, None, 0)


def _accounts(players: list[dict]) -> frozenset[str]:
    """The folded names of the accounts seated: each agreed to this game (the challenger
    by challenging, the others by accepting), so none needs its key to be seated."""
    return frozenset(p["account"].lower() for p in players if p.get("account"))


def _games(spec: dict) -> int:
    return 2 if spec["match"] == matches.TWO_BOARDS else 1
