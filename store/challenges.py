"""Challenges in Redis: one small hash per challenge and the indexes around it (store.keys,
all under the hash tag `{ch}`). Opening one (with the per-account limits) and every change
that closes one are each one Lua script, so accept, decline, cancel and expiry racing on one
challenge have exactly one winner."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

import orjson
import redis
from redis.cluster import RedisCluster

from store import keys
from store.codec import text
from store.eventstore import load_script
from store.notify import FAILURES, sharded

log = logging.getLogger(__name__)

KEEP_MS = 3_600_000  # a closed challenge is kept (readable, on streams) this long
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


def call_member(challenge_id: str, folded: str) -> str:
    return f"{challenge_id}:{folded}"


class ChallengeStore:
    """Reads and atomic changes of challenges."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.create_script = client.register_script(load_script("challenge_create.lua"))
        self.close_script = client.register_script(load_script("challenge_close.lua"))
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
        """Open a challenge; Full when the challenger or an invitee is at its limit."""
        invitees = [o["account"].lower() for o in spec["opponents"] if "account" in o]
        challenger = spec["challenger"].lower()
        script_keys = [
            keys.challenge(challenge_id),
            keys.challenges_expiring(),
            keys.challenges_out(challenger),
            keys.challenges_of(challenger),
            keys.challenge_calls(),
        ]
        for folded in invitees:
            script_keys += [keys.challenges_in(folded), keys.challenges_of(folded)]
        calls = [call_member(challenge_id, name) for name in webhook_accounts]
        fields = {
            "spec": orjson.dumps(spec),
            "status": "open",
            "challenger": challenger,
            "invitees": ",".join(invitees),
            "accepted_by": "",
            "expires_at": expires_at,
        }
        flat = [item for pair in fields.items() for item in pair]
        args = [now, expires_at, limit_out, limit_in, challenge_id, len(calls), *calls, *flat]
        answer = self.create_script(keys=script_keys, args=args)
        if int(answer[0]) != 1:
            raise Full(text(answer[1]), int(answer[2]) if len(answer) > 2 else None)

    def get(self, challenge_id: str) -> Stored | None:
        return self.get_many([challenge_id])[0]

    def get_many(self, ids: list[str]) -> list[Stored | None]:
        """The challenges of `ids` (None where one is gone), in one round trip; each says
        whether its game is still to be made (it is among the accepted awaiting theirs)."""
        pipe = self.client.pipeline(transaction=False)
        for challenge_id in ids:
            pipe.hgetall(keys.challenge(challenge_id))
            pipe.zscore(keys.challenges_accepted(), challenge_id)
        replies = pipe.execute()
        return [
            _stored(i, raw, pending is not None)
            for i, raw, pending in zip(ids, replies[::2], replies[1::2], strict=True)
        ]

    def change(
        self,
        stored: Stored,
        action: str,
        actor: str,
        now: int,
        detail: str = "",
    ) -> Change:
        """Accept, decline, cancel or expire `stored` as `actor` (one script)."""
        script_keys = [
            keys.challenge(stored.id),
            keys.challenges_expiring(),
            keys.challenges_accepted(),
            keys.challenge_calls(),
            keys.challenges_out(stored.challenger),
            *(keys.challenges_in(name) for name in stored.invitees),
        ]
        calls = [call_member(stored.id, name) for name in stored.invitees]
        args = [action, actor, now, detail, KEEP_MS, stored.id, *calls]
        answer = [text(part) for part in self.close_script(keys=script_keys, args=args)]
        if answer[0] == "closed" and len(answer) > 2:
            return Change("closed", answer[1], expired_now=True)
        return Change(answer[0], answer[1] if len(answer) > 1 else None)

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

    def accepted_ids(self, before: int, limit: int = 100) -> list[str]:
        """Accepted challenges whose game was not confirmed by `before` (ms)."""
        found = self.client.zrangebyscore(keys.challenges_accepted(), "-inf", before, 0, limit)
        return [text(i) for i in found]

    def game_made(self, challenge_id: str) -> None:
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


def _stored(challenge_id: str, raw: dict, game_pending: bool = False) -> Stored | None:
    if not raw:
        return None
    data = {text(k): text(v) for k, v in raw.items()}
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
