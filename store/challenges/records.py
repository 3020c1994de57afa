"""Challenges in Redis: one small hash per challenge, on a slot of its own, and the indexes
around it in its accounts' slots (store.keys.challenges). Every change that closes a
challenge is one script over its record alone, so accept, decline, cancel and expiry racing
on one challenge have exactly one winner.

Opening spans the slots of the challenger and of each invitee, one step each:
1. the record is written as `reserving`, expiring in RESERVING_MS (a process that dies
   before step 4 leaves nothing that lasts);
2. the challenger's side (one script): cooldowns, the pair's open challenge, its outgoing
   limit; it lists the challenge and marks the pairs;
3. each invitee's side (one script each): its incoming limit; one refusing, the sides
   already taken are given back;
4. the record becomes `open` for good, then the expiring set, the webhook calls and each
   account's recent challenges list it.
A closing script is followed by taking the challenge out of those sets. An entry of an
outgoing or incoming set whose record is gone or no longer open or reserving (a process
died between steps) is dropped before the limits are counted again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

import orjson
import redis
from redis.cluster import RedisCluster

from store import keys
from store.core.codec import text
from store.core.notify import FAILURES, sharded
from store.core.scripts import load_script

log = logging.getLogger(__name__)

KEEP_MS = 3_600_000  # a closed challenge is kept (readable, on streams) this long
RESERVING_MS = 60_000  # a record not opened for good within this long is gone
CLAIM_MS = 30_000  # a claimed webhook call is due again after this long (its worker died)


@dataclass(frozen=True, slots=True)
class Stored:
    """A challenge as stored: its spec (what was asked) and its state."""

    id: str
    spec: dict
    status: str
    accepted_by: tuple[str, ...]
    game_id: str | None
    decline_reason: str | None
    expires_at: int
    match_id: str | None = None
    game_pending: bool = False  # accepted, its game not confirmed made yet

    @property
    def shown_status(self) -> str:
        """The status readers see: an accepted challenge whose game is not made yet is still
        open (its game id and its "accepted" line wait for the game)."""
        return "open" if self.game_pending else self.status

    @property
    def invitees(self) -> list[str]:
        """The folded names of the accounts challenged."""
        return [o["account"].lower() for o in self.spec["opponents"] if "account" in o]

    @property
    def challenger(self) -> str:
        return self.spec["challenger"].lower()

    def involves(self, folded: str) -> bool:
        return folded == self.challenger or folded in self.invitees


@dataclass(frozen=True, slots=True)
class Change:
    """What a closing script did: `ok` (it changed the challenge; `status` after it),
    else why not (`missing`, `closed` with its status, `forbidden`, `already`); `expired_now`
    when the script found it past its expiry and expired it instead."""

    outcome: str
    status: str | None = None
    expired_now: bool = False

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"


class Full(Exception):
    """A limit on open challenges is reached: `side` is "out" (the challenger's) or "in"
    (the invitee's at `index`)."""

    def __init__(self, side: str, index: int | None = None):
        super().__init__(side)
        self.side, self.index = side, index


class Cooling(Exception):
    """The invitee at `index` declined this challenger lately: `left_ms` to wait."""

    def __init__(self, index: int, left_ms: int):
        super().__init__(index)
        self.index, self.left_ms = index, left_ms


class PairOpen(Exception):
    """The challenger has an open challenge to the invitee at `index` already: `existing`."""

    def __init__(self, index: int, existing: str):
        super().__init__(existing)
        self.index, self.existing = index, existing


LISTED = ("open", "reserving")  # a record's statuses while its entries count


def call_member(challenge_id: str, folded: str) -> str:
    return f"{challenge_id}:{folded}"


class ChallengeStore:
    """Reads and atomic changes of challenges."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.out_script = client.register_script(load_script("challenge_reserve_out.lua"))
        self.in_script = client.register_script(load_script("challenge_reserve_in.lua"))
        self.close_script = client.register_script(load_script("challenge_close.lua"))
        self.open_script = client.register_script(load_script("challenge_open.lua"))
        self.claim_script = client.register_script(load_script("claim_turns.lua"))

    def create(
        self,
        challenge_id: str,
        spec: dict,
        now: int,
        expires_at: int,
        limit_out: int,
        limit_in: int,
        webhook_accounts: Iterable[str] = (),
    ) -> None:
        """Open a challenge; Full when the challenger or an invitee is at its limit,
        Cooling when an invitee declined this challenger lately, PairOpen when the
        challenger's challenge to an invitee is still open (never two open per pair)."""
        invitees = [o["account"].lower() for o in spec["opponents"] if "account" in o]
        challenger = spec["challenger"].lower()
        record = keys.challenge(challenge_id)
        fields = {
            "spec": orjson.dumps(spec),
            "status": "reserving",
            "challenger": challenger,
            "invitees": ",".join(invitees),
            "accepted_by": "",
            "expires_at": expires_at,
        }
        pipe = self.client.pipeline(transaction=True)  # the record's own slot
        pipe.hset(record, mapping=fields)
        pipe.pexpire(record, RESERVING_MS)
        pipe.execute()
        try:
            self._reserve(challenge_id, challenger, invitees, now, expires_at, limit_out, limit_in)
        except BaseException:
            self.client.delete(record)
            raise
        del fields["status"]
        flat = [item for pair in fields.items() for item in pair]
        opened = text(self.open_script(keys=[record], args=flat)) == "open"
        pipe = self.client.pipeline(transaction=False)
        if opened:
            pipe.zadd(keys.challenges_expiring(), {challenge_id: expires_at})
            calls = [call_member(challenge_id, name) for name in webhook_accounts]
            if calls:
                pipe.zadd(keys.challenge_calls(), dict.fromkeys(calls, now))
        for name in (challenger, *invitees):
            pipe.zadd(keys.challenges_of(name), {challenge_id: now})
        pipe.execute()
        if not opened:  # replaced meanwhile: out of the sets this call may have filled late
            self._unlist(challenge_id, challenger, invitees)

    def _reserve(self, challenge_id, challenger, invitees, now, expires_at, limit_out, limit_in):
        """Steps 2 and 3 of opening (the module's docstring); raises as `create` says."""
        outgoing = keys.challenges_out(challenger)
        self._drop_closed(outgoing)
        script_keys = [outgoing]
        for folded in invitees:
            script_keys += [
                keys.challenge_pair(challenger, folded),
                keys.challenge_cooldown(challenger, folded),
            ]
        args = [now, expires_at, limit_out, challenge_id]
        answer = self.out_script(keys=script_keys, args=args)
        if int(answer[0]) != 1:
            side = text(answer[1])
            if side == "cooldown":
                raise Cooling(int(answer[2]), int(answer[3]))
            if side == "pair":
                raise PairOpen(int(answer[2]), text(answer[3]))
            raise Full(side)
        taken = [outgoing]
        for index, folded in enumerate(invitees, start=1):
            incoming = keys.challenges_in(folded)
            self._drop_closed(incoming)
            if not self.in_script(keys=[incoming], args=[now, expires_at, limit_in, challenge_id]):
                for key in taken:
                    self.client.zrem(key, challenge_id)
                raise Full("in", index)
            taken.append(incoming)

    def _drop_closed(self, key: str) -> None:
        """Take out of an outgoing or incoming set the challenges whose record is gone or
        neither open nor being opened (left by a process that died between steps)."""
        ids = [text(i) for i in self.client.zrange(key, 0, -1)]
        if not ids:
            return
        pipe = self.client.pipeline(transaction=False)
        for challenge_id in ids:
            pipe.hget(keys.challenge(challenge_id), "status")
        statuses = pipe.execute()
        stale = [
            i for i, status in zip(ids, statuses, strict=True)
            if text(status or b"") not in LISTED
        ]  # fmt: skip
        if stale:
            self.client.zrem(key, *stale)

    def cool_down(self, challenger: str, invitee: str, ms: int) -> None:
        """The invitee declined: the challenger waits `ms` before challenging it again."""
        self.client.set(keys.challenge_cooldown(challenger, invitee), 1, px=max(1, ms))

    def get(self, challenge_id: str) -> Stored | None:
        return self.get_many([challenge_id])[0]

    def get_many(self, ids: list[str]) -> list[Stored | None]:
        """The challenges of `ids` (None where one is gone), in one round trip; each says
        whether its game is still to be made. A challenge still being opened says
        `reserving` (only a replacing challenge of its pair meets one: it may cancel it)."""
        pipe = self.client.pipeline(transaction=False)
        for challenge_id in ids:
            pipe.hgetall(keys.challenge(challenge_id))
        return [_stored(i, raw) for i, raw in zip(ids, pipe.execute(), strict=True)]

    def change(
        self,
        stored: Stored,
        action: str,
        actor: str,
        now: int,
        detail: str = "",
    ) -> Change:
        """Accept, decline, cancel or expire `stored` as `actor` (one script over its
        record; then a closed challenge is taken out of the sets that list it). An accept
        files the challenge among the accepted first, so that a process dying once the
        script accepted it leaves its game to the workers' repair."""
        if action == "accept":
            self.client.zadd(keys.challenges_accepted(), {stored.id: now})
        args = [action, actor, now, detail, KEEP_MS]
        reply = self.close_script(keys=[keys.challenge(stored.id)], args=args)
        answer = [text(part) for part in reply]
        if answer[0] == "closed" and len(answer) > 2:
            self._unlist(stored.id, stored.challenger, stored.invitees)
            return Change("closed", answer[1], expired_now=True)
        change = Change(answer[0], answer[1] if len(answer) > 1 else None)
        if change.ok and change.status != "open":
            self._unlist(stored.id, stored.challenger, stored.invitees)
        return change

    def _unlist(self, challenge_id: str, challenger: str, invitees: list[str]) -> None:
        """Take a closed challenge out of the sets of open ones (each in its own slot)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrem(keys.challenges_expiring(), challenge_id)
        pipe.zrem(keys.challenges_out(challenger), challenge_id)
        for name in invitees:
            pipe.zrem(keys.challenges_in(name), challenge_id)
        calls = [call_member(challenge_id, name) for name in invitees]
        if calls:
            pipe.zrem(keys.challenge_calls(), *calls)
        pipe.execute()

    def set_match(self, challenge_id: str, match_id: str) -> None:
        self.client.hset(keys.challenge(challenge_id), "match_id", match_id)

    def ids_of(self, folded: str, since: int) -> list[str]:
        """The challenges an account was part of since `since` (ms); older ones dropped."""
        key = keys.challenges_of(folded)
        pipe = self.client.pipeline(transaction=False)
        pipe.zremrangebyscore(key, "-inf", since)
        pipe.zrange(key, 0, -1)
        return [text(i) for i in pipe.execute()[1]]

    def open_ids(self, folded: str, direction: str, now: int) -> list[str]:
        """An account's open incoming or outgoing challenges not past their expiry."""
        key = keys.challenges_in(folded) if direction == "incoming" else keys.challenges_out(folded)
        return [text(i) for i in self.client.zrangebyscore(key, now + 1, "+inf")]

    def expired_ids(self, now: int, limit: int = 100) -> list[str]:
        """Open challenges past their expiry."""
        found = self.client.zrangebyscore(keys.challenges_expiring(), "-inf", now, 0, limit)
        return [text(i) for i in found]

    def not_expiring(self, challenge_id: str) -> None:
        """Take a closed (or gone) challenge out of the expiring set."""
        self.client.zrem(keys.challenges_expiring(), challenge_id)

    def accepted_ids(self, before: int, limit: int = 100) -> list[str]:
        """Challenges filed as being accepted by `before` (ms), whose game may need making."""
        found = self.client.zrangebyscore(keys.challenges_accepted(), "-inf", before, 0, limit)
        return [text(i) for i in found]

    def still_open(self, challenge_id: str, now: int) -> None:
        """A challenge filed as being accepted is open still (accepted in part): looked at
        again later, after the others filed."""
        self.client.zadd(keys.challenges_accepted(), {challenge_id: now}, xx=True)

    def game_made(self, challenge_id: str) -> None:
        """The accepted challenge's game is made (or will never be): no longer pending."""
        self.client.hdel(keys.challenge(challenge_id), "pending")
        self.client.zrem(keys.challenges_accepted(), challenge_id)

    def claim_calls(self, now: int, limit: int) -> list[tuple[str, str]]:
        """Claim due webhook calls: (challenge id, folded account) pairs."""
        claimed = self.claim_script(
            keys=[keys.challenge_calls()], args=[now, now + CLAIM_MS, limit]
        )
        return [tuple(text(m).rsplit(":", 1)) for m in claimed]

    def call_done(self, challenge_id: str, folded: str) -> None:
        self.client.zrem(keys.challenge_calls(), call_member(challenge_id, folded))

    def notify(self, stored: Stored) -> None:
        """Wake the event streams of everyone in the challenge (a hint: a stream re-reads
        the challenges); a failure is logged, never raised."""
        payload = orjson.dumps({"challenge": stored.id})
        channels = [
            keys.account_channel(n) for n in dict.fromkeys([stored.challenger, *stored.invitees])
        ]
        try:
            if sharded(self.client):
                pipe = self.client.pipeline(transaction=False)
                for channel in channels:
                    pipe.spublish(channel, payload)
                pipe.execute()
                return
            if isinstance(self.client, RedisCluster):
                for channel in channels:
                    self.client.publish(channel, payload)
                return
            pipe = self.client.pipeline(transaction=False)
            for channel in channels:
                pipe.publish(channel, payload)
            pipe.execute()
        except FAILURES as error:
            log.warning("notification of challenge %s not sent: %s", stored.id, error)


def _stored(challenge_id: str, raw: dict) -> Stored | None:
    if not raw:
        return None
    data = {text(k): text(v) for k, v in raw.items()}
    game_pending = data.get("pending") == "1"
    accepted = tuple(name for name in data.get("accepted_by", "").split(",") if name)
    return Stored(
        challenge_id,
        orjson.loads(data["spec"]),
        data["status"],
        accepted,
        data.get("game_id") or None,
        data.get("decline_reason") or None,
        int(data["expires_at"]),
        data.get("match_id") or None,
        game_pending and data["status"] == "accepted",
    )
