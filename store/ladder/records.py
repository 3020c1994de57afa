"""The ladder in Redis: per game type, an append-only log (one entry per finished rated game
of that type, written once, keyed by the game id) and the stored ratings (the log's fold,
updated in log order); and the set of finished rated games still to settle. Storage only:
application/games/settle.py decides what goes in.

Every key of a game type's ladder carries `{l:<game>}` (store.keys.ladder): its log, games
hash, cursor, ratings, board and histories, so its append script and its fold script stay
legal on a Redis Cluster and the game types' results and ratings sit on different slots.
A game type's ratings depend on its own entries only, so the logs need no common order: a
sequence number is a position in its game type's log. Appending is one script: HGET the
game id in its game type's games hash, else RPUSH the entry and HSET the id to its sequence
number, so two workers settling one game at once append it once (a game has one game type,
so one hash decides). Folding, per game type: read its cursor (entries of its log folded so
far), the next entries and the ratings they touch, fold them (ladder.fold) and write the
new ratings with the new cursor only if the cursor has not moved (a check-and-set script);
a loser reads again. A rebuild folds each game type's whole log from nothing and replaces
every rating of the game type with its cursor in one script.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import orjson
import redis

from domain.registry import game_names
from ladder.entries import LadderEntry, participant_id
from ladder.fold import Key, Rating
from ladder.history import fold_steps
from store import keys
from store.core.codec import text
from store.core.cursor import Pager, Position
from store.core.scripts import load_script
from store.ladder import history as ladder_history

FOLD_BATCH = 200  # entries folded per check-and-set
FOLD_ATTEMPTS = 8
READ_CHUNK = 1000  # log entries per LRANGE of a rebuild
FIELDS_PER_COMMAND = 200  # HSET/ZADD pairs per write of a rebuild (Lua's unpack limit)


@dataclass(frozen=True, slots=True)
class Appended:
    """Where a game's result sits in the ladder (`new`: this call appended it)."""

    seq: int
    new: bool


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What a rebuild found: entries folded, ratings written, and how many stored ratings
    differed from the re-fold before it replaced them (0: identical, bit for bit); then the
    rating history points of the re-fold and how many stored points it added or removed."""

    entries: int
    ratings: int
    differing: int
    history_points: int = 0
    history_differing: int = 0


class LadderStore:
    """Reads and writes the ladder's keys."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.append_script = client.register_script(load_script("ladder_append.lua"))
        self.fold_script = client.register_script(load_script("ladder_fold.lua"))
        self.claim_script = client.register_script(load_script("claim_turns.lua"))

    # ----- the log ---------------------------------------------------------------------

    def append(self, entry: LadderEntry) -> Appended:
        """Append a game's result to its game type's log unless that log holds the game
        already; `seq` is its place in that log."""
        game = entry.game
        new, seq = self.append_script(
            keys=[keys.ladder_games(game), keys.ladder_log(game)],
            args=[entry.game_id, entry.to_json()],
        )
        return Appended(int(seq), bool(new))

    def lengths(self) -> dict[str, int]:
        """Each game type's log length."""
        return self._per_game(lambda pipe, game: pipe.llen(keys.ladder_log(game)))

    def length(self) -> int:
        """Entries in the whole ladder (every game type's log)."""
        return sum(self.lengths().values())

    def entries(
        self, game: str | None = None, *, start: int = 0, count: int | None = None
    ) -> list[LadderEntry]:
        """Entries of game type `game`'s log from position `start` (0-based), `count` of them
        (None: to the end). Without `game`: the whole ladder, each game type's log after the
        other in name order (all a fold needs: a game type's entries in their order)."""
        if game is None:
            if start or count is not None:
                raise ValueError("a position is one game type's: name the game type")
            return [entry for name in sorted(game_names()) for entry in self.entries(name)]
        found: list[LadderEntry] = []
        while count is None or len(found) < count:
            chunk = READ_CHUNK if count is None else min(READ_CHUNK, count - len(found))
            at = start + len(found)
            raw = self.client.lrange(keys.ladder_log(game), at, at + chunk - 1)
            found += [LadderEntry.from_json(item) for item in raw]
            if len(raw) < chunk:
                break
        return found

    def sequence_of(self, game_ids: list[str]) -> list[int | None]:
        """Each game's sequence number in its game type's log (None: not in the ladder). A
        game id names one game type's game, so at most one games hash holds it."""
        if not game_ids:
            return []
        per_game = self._per_game(lambda pipe, game: pipe.hmget(keys.ladder_games(game), game_ids))
        found: list[int | None] = [None] * len(game_ids)
        for seqs in per_game.values():
            for at, seq in enumerate(seqs):
                if seq is not None:
                    found[at] = int(seq)
        return found

    def _per_game(self, command) -> dict:
        """One command per game type (`command(pipe, game)`), sent together: each game
        type's answer."""
        names = sorted(game_names())
        pipe = self.client.pipeline(transaction=False)
        for game in names:
            command(pipe, game)
        return dict(zip(names, pipe.execute(), strict=True))

    # ----- games to settle -------------------------------------------------------------

    def claim_due(self, now_ms: int, lease_ms: int, limit: int) -> list[str]:
        """Up to `limit` games due for settling, each claimed until `now_ms + lease_ms` (a
        claim that lapses, its worker dead, makes the game due again)."""
        found = self.claim_script(
            keys=[keys.games_to_settle()], args=[now_ms, now_ms + lease_ms, limit]
        )
        return [text(game_id) for game_id in found]

    def settled(self, game_id: str) -> None:
        """Take a game out of the set to settle (its result is in the ladder, or it has none)."""
        self.client.zrem(keys.games_to_settle(), game_id)

    def to_settle(self, due: dict[str, int]) -> None:
        """Put games (id -> ms due) into the set to settle (kept where they are if there)."""
        if due:
            self.client.zadd(keys.games_to_settle(), due, nx=True)

    def settle_now(self, due: dict[str, int]) -> None:
        """Make games (id -> ms due) due at once, whether or not they wait in the set (a
        deferred game's claim is cut short)."""
        if due:
            self.client.zadd(keys.games_to_settle(), due)

    def pending(self) -> list[str]:
        """Every game in the set to settle."""
        return [text(game_id) for game_id in self.client.zrange(keys.games_to_settle(), 0, -1)]

    # ----- ratings ---------------------------------------------------------------------

    def cursor(self) -> int:
        """How many entries of the whole ladder the stored ratings have folded (the game
        types' cursors summed: length() once every game type has folded all of its log)."""
        return sum(self.cursors().values())

    def cursors(self) -> dict[str, int]:
        """Each game type's fold cursor (entries of its log folded)."""
        found = self._per_game(lambda pipe, game: pipe.get(keys.ladder_cursor(game)))
        return {game: int(raw or 0) for game, raw in found.items()}

    def ratings(self, wanted: Iterable[Key]) -> dict[Key, Rating]:
        """The stored ratings of (game type, participant) keys (missing ones left out)."""
        wanted = sorted(set(wanted))
        if not wanted:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for game, participant in wanted:
            pipe.hget(keys.ladder_ratings(game), participant)
        found = {}
        for key, raw in zip(wanted, pipe.execute(), strict=True):
            if raw is not None:
                found[key] = Rating.from_dict(orjson.loads(raw))
        return found

    def all_ratings(self, games: Iterable[str] | None = None) -> dict[Key, Rating]:
        """Every stored rating of the game types (default: every game the service has)."""
        found = {}
        for game in sorted(games or game_names()):
            for participant, raw in self.client.hgetall(keys.ladder_ratings(game)).items():
                found[(game, text(participant))] = Rating.from_dict(orjson.loads(raw))
        return found

    def fold_pending(self, batch: int = FOLD_BATCH) -> int:
        """Fold the entries after each game type's cursor into its stored ratings, `batch`
        entries of its log at a time, in log order; the number of entries folded by this
        call."""
        return sum(self._fold_game(game, batch) for game in sorted(game_names()))

    def _fold_game(self, game: str, batch: int) -> int:
        folded = 0
        for _ in range(FOLD_ATTEMPTS):
            cursor = int(self.client.get(keys.ladder_cursor(game)) or 0)
            entries = self.entries(game, start=cursor, count=batch)
            if not entries:
                return folded
            wanted = {(game, seat.participant) for entry in entries for seat in entry.seats}
            ratings, touched, steps = fold_steps(entries, cursor + 1, self.ratings(wanted))
            writes = _rating_writes({key: ratings[key] for key in touched})
            writes += ladder_history.history_writes(steps)  # store.ladder.history
            if self._write(game, str(cursor), cursor + len(entries), writes):
                folded += len(entries)
        return folded

    def rebuild(self) -> Rebuilt:
        """Fold each game type's whole log from nothing and replace its stored ratings with
        the result (and its cursor with its log's length), then repair its rating histories
        to match the re-fold's steps (store.ladder.history.repair); the game types summed."""
        done = Rebuilt(0, 0, 0)
        for game in sorted(game_names()):
            entries = self.entries(game)
            ratings, _, steps = fold_steps(entries, 1)
            stored = self.all_ratings([game])
            differing = sum(stored.get(k) != ratings.get(k) for k in set(stored) | set(ratings))
            deletes = [("DEL", keys.ladder_ratings(game), []), ("DEL", keys.ladder_board(game), [])]
            self._write(game, "", len(entries), deletes + _rating_writes(ratings))
            repaired = ladder_history.repair(self.client, game, steps, len(entries))
            done = Rebuilt(
                done.entries + len(entries),
                done.ratings + len(ratings),
                done.differing + differing,
                done.history_points + len(steps),
                done.history_differing + repaired,
            )
        return done

    def _write(
        self, game: str, expected: str, cursor: int, writes: list[tuple[str, str, list]]
    ) -> bool:
        """One game type's fold script: its cursor, then its ratings, board and histories."""
        script_keys, args = [keys.ladder_cursor(game)], [expected, cursor]
        for command, key, arguments in writes:
            if key not in script_keys:
                script_keys.append(key)
            args.extend((command, script_keys.index(key) + 1, len(arguments), *arguments))
        return bool(self.fold_script(keys=script_keys, args=args))

    # ----- reading ---------------------------------------------------------------------

    def board(
        self, game: str, after: Position | None, limit: int
    ) -> tuple[list[Rating], Position | None]:
        """One page of a game type's ratings by ordinal, best first, after a cursor position,
        and the position to go on from (store.core.cursor: by (ordinal, participant); a rating
        that changes during the walk moves in the order, so it may be met again or missed)."""
        ids, position = Pager(self.client).page(keys.ladder_board(game), after, limit)
        if not ids:
            return [], position
        raw = self.client.hmget(keys.ladder_ratings(game), ids)
        found = [Rating.from_dict(orjson.loads(item)) for item in raw if item is not None]
        return found, position

    def account_ratings(self, name: str, games: Iterable[str]) -> dict[str, Rating]:
        """An account's rating per game type it has one in."""
        participant = participant_id(name, bot=False)
        found = self.ratings((game, participant) for game in games)
        return {game: rating for (game, _), rating in found.items()}


def _rating_writes(ratings: dict[Key, Rating]) -> list[tuple[str, str, list]]:
    """HSET of each rating (JSON) and ZADD of its ordinal, per game type, in chunks."""
    by_game: dict[str, list[tuple[str, Rating]]] = {}
    for (game, participant), rating in sorted(ratings.items()):
        by_game.setdefault(game, []).append((participant, rating))
    writes = []
    for game, rows in by_game.items():
        for at in range(0, len(rows), FIELDS_PER_COMMAND):
            chunk = rows[at : at + FIELDS_PER_COMMAND]
            fields = [x for pid, r in chunk for x in (pid, orjson.dumps(r.to_dict()))]
            scored = [x for pid, r in chunk for x in (repr(r.ordinal), pid)]
            writes.append(("HSET", keys.ladder_ratings(game), fields))
            writes.append(("ZADD", keys.ladder_board(game), scored))
    return writes
