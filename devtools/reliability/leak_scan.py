"""R2 scan: play random games in-process and look at every response each viewer can get.

Each step goes through the service's own redaction path (`gamelog.record.fold_entries`,
`GameService.decide`, `api.games.presenters`: state, legal moves, events, the mover's answer,
errors) and the scan checks, for every seat and a spectator, that nothing shown is beyond
what the rules let that viewer know. The knowledge model is built from the event
catalogue of docs/DESIGN.md, not from the redaction code:

- keltis-card: a card name may appear only if the viewer has seen that card: laid,
  discarded, wished or drawn from a pile (public), or dealt to / drawn from the deck by
  the viewer itself. Hands of others, the draw pile and removed cards are unknown names.
- keltis-dice: every list of five die faces shown must be a roll already made (never a
  future roll); and no roll index beyond the rolls made.
- both: the seed never appears, and no event keeps "hidden" fields for a non-owner, until
  the game is over; a replay of a live game is refused (GameNotFinished).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

import orjson
import redis

from api.games import presenters
from application.accounts.auth import Actor
from application.games.service import GameService
from devtools.picks import rotating_pick
from domain.card.cards import NAMES as CARD_NAMES
from domain.card.cards import POINT, ROWS
from domain.chance import Chance
from domain.errors import KeltisError
from domain.registry import get_rules
from gamelog.entries import Entry, make_batch
from gamelog.events import game_created
from gamelog.record import fold_entries
from replays.build import build_replay
from replays.errors import GameNotFinished

CARD = "keltis-card"
DICE = "keltis-dice"
# A card name (C4) anywhere in a text, one pattern per row: a pattern that starts with a
# literal is searched for fast (a leading \b or lookbehind makes the regex try every
# character), so the word boundary before a name is checked apart, and only for the names a
# viewer may not know.
CARD_NAME_PATTERNS = tuple(
    (row, re.compile(rf"{row}-(?:10|[0-9]{'' if row == POINT else '|end'})\b")) for row in ROWS
)
FACE = re.compile(r'"(brown|yellow|pink|green|blue|stone)"')
FIVE_FACES = re.compile(r'\[\s*(?:"(?:brown|yellow|pink|green|blue|stone)",\s*){4}"[a-z]+"\s*\]')
PUBLIC_CARD_FIELDS = {
    "card_discarded": ("card",),
    "stone_wished": ("cards",),
    "card_laid": ("card",),
}
REPLAY_CHECK_EVERY = 10  # turns of the HTTP scan
# Steps of the in-process scan: each check folds the whole log so far (at 10, a sixth of the
# scan's time); still some 1,400 (dice) to 2,400 (card) checks over 500 games.
SCAN_REPLAY_CHECK_EVERY = 40


@dataclass
class LeakReport:
    """What the scan looked at and what it found."""

    games: int = 0
    steps: int = 0
    responses: int = 0
    leaks: list[str] = field(default_factory=list)


def _offline_service() -> GameService:
    """The service's decide path; it never talks to Redis (the client never connects)."""
    return GameService(redis.Redis(host="127.0.0.1", port=1))


def _json(value) -> str:
    """`value` as JSON text, fast (orjson: the whole scan takes a quarter less CPU than with
    json.dumps); what orjson cannot encode (an integer beyond 64 bits) goes through json."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


def card_names(text: str, *known: set[str] | frozenset[str]) -> set[str]:
    """Every card name in `text` that stands as a word of its own, but those in `known`
    (whose boundaries are then never checked)."""
    candidates = _name_candidates(text)
    for names in known:
        candidates -= names
    return {name for name in candidates if _stands_as_word(text, name)}


def _name_candidates(text: str) -> set[str]:
    """Every card name in `text` with a word boundary after it: the names of `card_names`
    and those glued to a word before them (`xgreen-4`)."""
    found = set()
    for row, pattern in CARD_NAME_PATTERNS:
        if row in text:
            found.update(pattern.findall(text))
    return found


def _stands_as_word(text: str, name: str) -> bool:
    """Whether `name` occurs in `text` with no word character on either side."""
    start = text.find(name)
    while start != -1:
        end = start + len(name)
        before_ok = start == 0 or not _is_word_char(text[start - 1])
        if before_ok and (end == len(text) or not _is_word_char(text[end])):
            return True
        start = text.find(name, start + 1)
    return False


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _names_in(value) -> set[str]:
    return card_names(_json(value))


class Knowledge:
    """What each viewer (seats, and None for a spectator) may know at this point."""

    def __init__(self, game: str, players: int):
        self.game = game
        self.viewers = [*range(players), None]
        self.cards: dict[int | None, set[str]] = {viewer: set() for viewer in self.viewers}
        self.rolls: set[tuple] = set()
        self.roll_count = 0

    def learn(self, event: dict) -> list[str]:
        """Add what `event` reveals; returns rule breaches found in the event itself."""
        if self.game == DICE:
            if event["type"] in ("dice_rolled", "dice_rerolled"):
                self.rolls.add(tuple(event["dice"]))
                self.roll_count = max(self.roll_count, event["roll"] + 1)
            return []
        return self._learn_card(event)

    def _learn_card(self, event: dict) -> list[str]:
        kind, public = event["type"], {k: v for k, v in event.items() if k != "hidden"}
        hidden = event.get("hidden", {})
        allowed: set[str] = set()
        for name in PUBLIC_CARD_FIELDS.get(kind, ()):
            allowed |= _names_in(event[name])
        if kind == "card_drawn" and event["source"] != "deck":
            allowed |= _names_in(event["card"])
        for viewer in self.viewers:
            self.cards[viewer] |= allowed
        owner = event.get("owner", event.get("seat") if kind == "card_drawn" else None)
        if hidden and owner is not None and kind in ("cards_dealt", "card_drawn"):
            self.cards[owner] |= _names_in(hidden)
        stray = _names_in(public) - allowed
        return [f"{kind} shows {sorted(stray)} in public fields"] if stray else []

    def breaches(
        self, viewer: int | None, shown, secret: str, extra: frozenset[str] = frozenset()
    ) -> list[str]:
        """What `shown` (one response to `viewer`) tells beyond the viewer's knowledge."""
        return self.breaches_in_text(viewer, _json(shown), secret, extra)

    def breaches_in_text(
        self, viewer: int | None, text: str, secret: str, extra: frozenset[str] = frozenset()
    ) -> list[str]:
        """The same for a response body as sent (JSON of any spacing, or HTML)."""
        found = [f"viewer {viewer} sees the seed"] if secret in text else []
        if self.game == CARD:
            unknown = card_names(text, self.cards[viewer], extra)
            if unknown:
                found.append(f"viewer {viewer} sees unknown cards {sorted(unknown)[:5]}")
        else:
            future = {tuple(FACE.findall(group)) for group in FIVE_FACES.findall(text)}
            if future - self.rolls:
                found.append(f"viewer {viewer} sees dice never rolled {sorted(future)[:3]}")
        return found


def _hidden_shown(events: list[dict], viewer: int | None) -> list[str]:
    return [
        f"viewer {viewer} gets hidden fields of {shown['event']['type']}"
        for shown in events
        if "hidden" in shown["event"] and shown["event"].get("owner", -1) != viewer
    ]


class GameScan:
    """One random game played step by step, every response of every viewer scanned."""

    def __init__(self, game: str, rng: random.Random, report: LeakReport):
        self.rules = get_rules(game)
        self.game = game
        self.rng = rng
        self.report = report
        self.service = _offline_service()
        players = rng.randint(self.rules.min_players, self.rules.max_players)
        cheap = [name for name in sorted(self.rules.bots) if name in ("random", "greedy")]
        self.bots = [rng.choice(cheap) for _ in range(players)]  # the search bot sees views too
        self.seed = rng.randbytes(32)
        self.game_id = f"leak-scan-{rng.getrandbits(64):016x}"
        self.knowledge = Knowledge(game, players)
        self.entries: list[Entry] = []

    def run(self) -> None:
        options = self.rules.normalize_options({})
        players = [{"name": f"bot{s}", "bot": bot} for s, bot in enumerate(self.bots)]
        created = game_created(self.game, options, players, self.seed)
        opening = self.rules.start(len(self.bots), options, Chance(self.seed))
        batch = make_batch(1, [created, *opening], 0, None, None)
        record = fold_entries(None, self.game_id, batch)
        self._scan_step(record, batch, mover=None)
        while not record.finished:
            seat = record.to_move
            moves = self.rules.legal_moves(record.state, seat)
            view = self.rules.view(record.state, seat)
            command = self.rules.bots[self.bots[seat]](view, moves, self.rng)
            self._try_illegal(record)
            batch, record = self.service.decide(record, Actor(seat), dict(command))
            self._scan_step(record, batch, mover=seat)
        self.report.games += 1

    def _scan_step(self, record, batch: list[Entry], mover: int | None) -> None:
        self.entries.extend(batch)
        self.report.steps += 1
        for entry in batch:
            self._leak(self.knowledge.learn(entry.event))
        if record.finished:
            return  # everything is revealed now (R3)
        secret = self.seed.hex()
        for viewer in self.knowledge.viewers:
            responses = [
                presenters.game(record, viewer),
                presenters.events(batch, viewer, record.finished),
            ]
            self._leak(_hidden_shown(responses[1], viewer))
            if viewer is not None:
                responses.append(presenters.legal_moves(record, viewer))
            if viewer is not None and viewer == mover:
                answer = presenters.move_result(record, batch, viewer)
                self._leak(_hidden_shown(answer["events"], viewer))
                responses.append(answer)
            # one text per viewer and step (a name or a roll stands inside one response: a
            # list's brackets and commas part them), searched once instead of three or four times
            self.report.responses += len(responses)
            self._leak(self.knowledge.breaches(viewer, responses, secret))
        if self.report.steps % SCAN_REPLAY_CHECK_EVERY == 0:
            self._check_live_replay()

    def _try_illegal(self, record) -> None:
        """An illegal or out-of-turn command by a random seat: the error must not leak."""
        seat = self.rng.randrange(len(self.bots))
        if self.game == CARD:
            name = self.rng.choice(CARD_NAMES)
            command = self.rng.choice(
                [
                    {"action": "discard", "card": name},
                    {"action": "lay", "card": name},
                    {"action": "draw", "source": self.rng.choice(["deck", "blue", "point"])},
                    {"action": "wish", "cards": [name, self.rng.choice(CARD_NAMES)]},
                ]
            )
        else:
            command = self.rng.choice(
                [{"action": "reroll", "dice": [0, 9]}, {"action": "move", "color": "grey"}]
            )
        try:
            self.service.decide(record, Actor(seat), command)
        except KeltisError as error:
            message = {"code": error.code, "message": error.message, "rule": error.rule}
            self.report.responses += 1
            named = frozenset(_names_in(command))
            self._leak(self.knowledge.breaches(seat, message, self.seed.hex(), named))

    def _check_live_replay(self) -> None:
        try:
            build_replay(self.game_id, self.entries)
        except GameNotFinished:
            self.report.responses += 1
            return
        self._leak(["a replay of a live game was built"])

    def _leak(self, found: list[str]) -> None:
        for leak in found:
            self.report.leaks.append(f"{self.game} {self.game_id}: {leak}")


def scan_games(game: str, count: int, seed: int = 2026) -> LeakReport:
    """Play `count` random games of `game` (2-4 seats, random bots) and scan them."""
    report = LeakReport()
    rng = random.Random(seed)
    for _ in range(count):
        GameScan(game, rng, report).run()
    return report


def _scan_chunk(args: tuple[str, int, int]) -> LeakReport:
    game, count, seed = args
    return scan_games(game, count, seed)


def scan_games_parallel(game: str, count: int, processes: int = 2, seed: int = 2026) -> LeakReport:
    """`scan_games` split over `processes` processes (each chunk with its own seed)."""
    import multiprocessing

    chunks = [
        (game, count // processes + (i < count % processes), seed + i) for i in range(processes)
    ]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        parts = pool.map(_scan_chunk, chunks)
    total = LeakReport()
    for part in parts:
        total.games += part.games
        total.steps += part.steps
        total.responses += part.responses
        total.leaks += part.leaks
    return total


# ----- the same scan over HTTP (every channel a client can reach) --------------------------


def scan_http_game(
    client, redis_client, game: str, report: LeakReport, max_steps: int = 10_000
) -> None:
    """Play one two-human game over HTTP; after every move, every viewer fetches the state,
    the new events, its legal moves (and every few moves the replay and its page); the
    mover's answer is scanned too."""
    from devtools.reliability.logcheck import read_log

    body = {"game": game, "players": [{"name": "ann"}, {"name": "bea"}]}
    created = client.post("/v1/games", json=body).get_json()
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    knowledge = Knowledge(game, 2)
    seen, turn, answered = 0, 0, None
    while turn < max_steps:
        entries = read_log(redis_client, game_id)
        for entry in entries[seen:]:
            _report_leaks(report, game_id, knowledge.learn(entry.event))
        seen_before, seen = seen, len(entries)
        secret = entries[0].event["hidden"]["seed"]
        record_state = client.get(f"/v1/games/{game_id}").get_json()
        if record_state["status"] == "finished":
            break  # everything is revealed now (R3)
        if answered is not None:  # the mover's answer, now that its events are known
            _report_leaks(report, game_id, knowledge.breaches_in_text(*answered, secret))
        for viewer in knowledge.viewers:
            headers = {"Authorization": f"Bearer {tokens[viewer]}"} if viewer is not None else {}
            paths = ["", f"/events?after={seen_before}"]
            if turn % REPLAY_CHECK_EVERY == 0:
                paths += ["/replay", "/replay.html"]
            if viewer is not None:
                paths.append("/moves")
            for path in paths:
                response = client.get(f"/v1/games/{game_id}{path}", headers=headers)
                text = response.get_data(as_text=True)
                report.responses += 1
                found = knowledge.breaches_in_text(viewer, text, secret)
                if path.startswith("/replay") and response.status_code != 409:
                    found.append(f"a live game's {path} answered {response.status_code}")
                if path.startswith("/events"):
                    found += _hidden_shown(response.get_json()["events"], viewer)
                _report_leaks(report, game_id, found)
        seat = record_state["to_move"]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        moves = client.get(f"/v1/games/{game_id}/moves", headers=auth).get_json()["moves"]
        move = rotating_pick(moves, turn)
        posted = client.post(f"/v1/games/{game_id}/moves", json=move, headers=auth)
        answered = (seat, posted.get_data(as_text=True))
        report.responses += 1
        report.steps += 1
        turn += 1
    report.games += 1 if turn < max_steps else 0


def _report_leaks(report: LeakReport, game_id: str, found: list[str]) -> None:
    report.leaks.extend(f"{game_id}: {leak}" for leak in found)
