"""The two-board dice match (the dice rule book's tip): one keltis-dice game on the board's
`basic` side, then one on its `advanced` side with the same seats; the scores are added and
the match has one result (the highest sum wins; tied sums all win).

A match is a small record (store.keys.match) linking its games; each game is an ordinary
unrated game with its own log and replay. The second game is created by the workers' pass
once the first is over (its id follows from the first's, so a repeat finds it made); when
both are over the result is written once and, for a rated match, filed in the ladder as ONE
entry keyed by the match id (the ladder's script dedupes it). A void first or second game
(cancelled, expired) voids the match, and so does a first game that ended before every seat
made a move of its own (aborted, as a rated game would be). A game of a rated match is
cancelled only before every seat moved in it, its second game never (application.games.cancel).

Both games are seeded from the match's one server secret (`match_secret`, drawn when the
challenge is accepted): SHA-256(utf8(f"{secret}:{board}")), so the first game's replay,
public once it is over, predicts nothing of the second (R2); the match shows the secret's
SHA-256 while it runs and the secret once it is over, when both seeds re-derive (R3).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets

import orjson
import redis

from application.games.errors import GameNotFound, InvalidPlayers, VersionConflict
from application.games.service import GameService
from application.ladder.rated_pairs import short_game, weighed
from domain.ranking import ranks
from gamelog.outcome import outcome_of
from gamelog.record import GameRecord
from ladder.entries import LadderEntry, LadderSeat
from store.archive import listing as archive_listing
from store.archive.tier import archive_from_env
from store.ladder.records import LadderStore
from store.tournaments import matches as match_records

log = logging.getLogger(__name__)

TWO_BOARDS = "two_boards"
GAME = "keltis-dice"
BOARDS = ("basic", "advanced")
OVER = ("finished", "cancelled", "expired")
KEEP_MS = 30 * 24 * 3_600_000  # a finished match's record is kept this long


def check_game(game: str, options: dict) -> None:
    """InvalidPlayers unless the match can be played: keltis-dice, board not chosen."""
    if game != GAME:
        raise InvalidPlayers(f"the two_boards match is a {GAME} format")
    if "board" in options:
        raise InvalidPlayers("a two_boards match plays both boards: leave out options.board")


def first_options(options: dict) -> dict:
    return {**options, "board": BOARDS[0]}


def second_game_id(first_id: str) -> str:
    return f"{first_id}-b2"


def match_id_of(challenge_id: str) -> str:
    return f"m-{challenge_id}"


def open_match(client: redis.Redis, challenge_id: str, spec: dict, first: GameRecord) -> str:
    """Write the match of an accepted challenge (the same fields however often called)."""
    match_id = match_id_of(challenge_id)
    seats = [
        {"account": p["account"]} if p.get("account") else {"bot": p["bot"]} for p in first.players
    ]
    record = {
        "game": GAME,
        "seats": seats,
        "rated": spec["rated"],
        "clock": spec["clock"],
        "options": spec["options"],
        "challenge": challenge_id,
        "created_at": first.created_at,
    }
    match_records.create(client, match_id, record, first.game_id, spec["created_at"])
    return match_id


def match_secret(client: redis.Redis, match_id: str) -> str:
    """The match's secret (drawn once: a repeat of the challenge's start reads the same)."""
    return match_records.secret(client, match_id, secrets.token_hex(32))


def board_seed(secret: str, board: str) -> bytes:
    """The seed of the match's game on `board`, from the match's secret alone."""
    return hashlib.sha256(f"{secret}:{board}".encode()).digest()


def load(client: redis.Redis, match_id: str) -> dict | None:
    data = match_records.read(client, match_id)
    if "spec" not in data:  # none, or its secret drawn and its record not written yet
        return None
    return {
        "id": match_id,
        "spec": orjson.loads(data["spec"]),
        "games": orjson.loads(data["games"]),
        "status": data["status"],
        "result": orjson.loads(data["result"]) if data.get("result") else None,
        "secret": data.get("secret"),
    }


def advance_all(service: GameService, limit: int = 200) -> int:
    """One pass over the running matches: start second games, write results; how many
    matches changed."""
    client = service.client
    ids = match_records.running(client, limit)
    changed = 0
    for match_id in _ready(client, ids):
        try:
            changed += advance(service, match_id)
        except Exception:  # one broken match must not stop the others
            log.exception("match %s could not advance", match_id)
    return changed


def _ready(client: redis.Redis, ids: list[str]) -> list[str]:
    """The matches whose last game is over or unknown to the index (two round trips, so
    a pass over many matches in play costs little)."""
    if not ids:
        return []
    lasts = match_records.last_games(client, ids)
    wanted = [game_id for game_id in lasts if game_id is not None]
    found = archive_listing.read_summaries(client, archive_from_env(), wanted)
    summaries = dict(zip(wanted, found, strict=True))
    ready = []
    for match_id, last in zip(ids, lasts, strict=True):
        raw = summaries.get(last) if last is not None else None
        if raw is None or orjson.loads(raw).get("status") in OVER:
            ready.append(match_id)
    return ready


def advance(service: GameService, match_id: str) -> bool:
    """Start the match's second game once its first is over, or write its result once
    both are; whether it changed (safe to repeat, from any worker)."""
    client = service.client
    match = load(client, match_id)
    if match is None or match["status"] != "running":
        match_records.forget_running(client, match_id)
        return False
    records = []
    for game_id in match["games"]:
        try:
            records.append(service.load(game_id)[0])
        except GameNotFound:
            return False  # the game is being made (its challenge's repair makes it)
    last = outcome_of(records[-1])
    if last is None:
        return False
    if last.void:
        _finish(client, match_id, "void", None)
        return True
    if len(records) == 1 and not records[0].all_moved:  # aborted, as a rated game would be
        _finish(client, match_id, "void", None)
        return True
    if len(records) == 1:
        _start_second(service, match, records[0])
        return True
    result = result_of(match, records)
    if match["spec"]["rated"]:
        entry = ladder_entry(match_id, match, records, result)
        LadderStore(client).append(weighed(client, entry, all(map(short_game, records))))
    _finish(client, match_id, "finished", result)
    return True


def _start_second(service: GameService, match: dict, first: GameRecord) -> None:
    spec = match["spec"]
    second_id = second_game_id(first.game_id)
    with contextlib.suppress(VersionConflict):  # made by an earlier pass
        service.create(
            GAME,
            [dict(seat) for seat in spec["seats"]],
            {**spec["options"], "board": BOARDS[1]},
            game_id=second_id,
            seed=board_seed(match["secret"], BOARDS[1]) if match["secret"] else None,
            clock=spec["clock"],
            consenting=frozenset(s["account"].lower() for s in spec["seats"] if "account" in s),
        )
    match_records.set_games(service.client, match["id"], [first.game_id, second_id])


def result_of(match: dict, records: list[GameRecord]) -> dict:
    """The summed result: per seat the sum of its scores (None when a game ended early
    without scores), its rank, the winners (highest sum; all tied win) and forfeits."""
    seats = len(records[0].players)
    outcomes = [outcome_of(record) for record in records]
    forfeited = [any(o.seats[s].forfeited for o in outcomes) for s in range(seats)]
    sums: list[float | None] = []
    for seat in range(seats):
        scores = [o.seats[seat].score for o in outcomes]
        sums.append(None if any(s is None for s in scores) else sum(scores))
    placed = ranks(sums, forfeited)
    in_play = [s for s in range(seats) if not forfeited[s]]
    if in_play and all(sums[s] is not None for s in in_play):
        best = max(sums[s] for s in in_play)
        winners = [s for s in in_play if sums[s] == best]
    else:
        winners = [s for s in in_play if placed[s] == 1]
    return {
        "scores": sums,
        "games_scores": [list(o.scores) for o in outcomes],
        "ranks": placed,
        "winners": winners,
        "forfeited": [s for s in range(seats) if forfeited[s]],
        "finished_at": max(record.updated_at for record in records),
    }


def ladder_entry(
    match_id: str, match: dict, records: list[GameRecord], result: dict
) -> LadderEntry:
    """The match's one ladder entry (keyed by the match id)."""
    return summed_ladder_entry(match_id, GAME, match["spec"]["seats"], result)


def summed_ladder_entry(key: str, game: str, seats: list[dict], result: dict) -> LadderEntry:
    """One ladder entry keyed `key` for a match's summed `result` (scores, ranks, winners,
    forfeited), its seats each an account (`{"account"}`) or a built-in bot (`{"bot"}`)."""
    placed = []
    for n, seat in enumerate(seats):
        name, bot = (seat["account"], False) if seat.get("account") else (seat["bot"], True)
        placed.append(
            LadderSeat(
                name,
                bot,
                result["scores"][n],
                result["ranks"][n],
                n in result["winners"],
                n in result["forfeited"],
            )
        )
    return LadderEntry(key, game, result["finished_at"], tuple(placed))


def _finish(client: redis.Redis, match_id: str, status: str, result: dict | None) -> None:
    match_records.finish(client, match_id, status, result, KEEP_MS)


def present(service: GameService, match: dict) -> dict:
    """GET /v1/matches/{id}: both games (with their replays), seats, the summed result."""
    spec = match["spec"]
    games = []
    for n, game_id in enumerate(match["games"]):
        try:
            record = service.load(game_id)[0]
        except GameNotFound:
            continue
        outcome = outcome_of(record)
        games.append(
            {
                "id": game_id,
                "board": BOARDS[n],
                "status": str(record.status),
                "scores": list(outcome.scores) if outcome is not None else None,
                "replay": f"/v1/games/{game_id}/replay" if record.finished else None,
            }
        )
    result = match["result"]
    return {
        "id": match["id"],
        "game": GAME,
        "format": TWO_BOARDS,
        "status": match["status"],
        "rated": spec["rated"],
        "challenge": spec["challenge"],
        "players": [{"seat": n, **seat} for n, seat in enumerate(spec["seats"])],
        "games": games,
        "scores": result["scores"] if result else None,
        "winners": result["winners"] if result else None,
        **_seed_fields(match),
    }


def _seed_fields(match: dict) -> dict:
    """The commitment to the match's secret, and the secret once the match is over."""
    secret = match["secret"]
    if secret is None:  # a match from before seeds came from a secret: its seeds are random
        return {"seed_sha256": None, "seed": None}
    shown = secret if match["status"] != "running" else None
    return {"seed_sha256": hashlib.sha256(secret.encode()).hexdigest(), "seed": shown}
