"""What a tournament is: a game, its entries, seats per game, format, games, a seed.

An entry is a built-in bot's name (`greedy`) or an account's, written `@alphabot`. A
tournament with an account entry is *open*: its games are played turn by turn on the
service under a turn clock (`clock`), at most `concurrency` at once, and an account plays
one game of the tournament at a time unless `parallel_per_account`. A tournament with a bot
that is not instant (`mcts`, another package's bot) is played turn by turn too, one bot
move per job, so that no worker is held for whole games of searches (`turn_by_turn`). Games
of the instant built-in bots only are played out in one go by game jobs (the fast path).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import asdict, dataclass

from domain.bots import fallback_problem
from domain.errors import DomainError
from domain.registry import get_rules
from tournaments import schedule
from tournaments.errors import InvalidTournament

MAX_GAMES = schedule.MAX_GAMES
MAX_ENTRIES = 32
MAX_CONCURRENCY = 64
DEFAULT_CONCURRENCY = 8
SINGLE, TWO_BOARDS = "single", "two_boards"  # the match format of each game
ACCOUNT_PREFIX = "@"
ACCOUNT_ENTRY = re.compile(r"^@[A-Za-z0-9_-]{2,30}\Z")
DEFAULT_CLOCK = {"move_seconds": 5, "bank_seconds": 0, "fallback": "random", "max_timeouts": 3}
# Games one RQ job plays in turn: RQ's own bookkeeping costs about a third of a card game,
# so a job plays a few; each game still records its own outcome (progress is per game).
GAMES_PER_JOB = 4


def is_account(entry: str) -> bool:
    """Whether an entry names an account (`@name`) rather than a built-in bot."""
    return entry.startswith(ACCOUNT_PREFIX)


def account_name(entry: str) -> str:
    """The account name of an `@name` entry."""
    return entry[len(ACCOUNT_PREFIX) :]


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament's definition. `bots` are its entries (a name may repeat)."""

    game: str
    bots: tuple[str, ...]
    players_per_game: int
    games: int
    seed: str
    games_per_job: int = 1
    salt: str | None = None  # server-drawn, secret until the end (see tournaments.seeds)
    options: tuple[tuple[str, object], ...] = ()  # the game's options, as sorted pairs
    format: str = schedule.ROTATION
    games_per_table: int = 0  # round_robin and duplicate only
    clock: tuple[tuple[str, object], ...] = ()  # open tournaments: the games' turn clock
    concurrency: int = DEFAULT_CONCURRENCY
    parallel_per_account: bool = False
    match: str = SINGLE  # or TWO_BOARDS: each game of the schedule is a two-board match
    rated: bool = False  # its games (a two-board match: the match) go into the ladder

    @property
    def game_options(self) -> dict:
        """The options every game of the tournament is created with."""
        return dict(self.options)

    @property
    def game_clock(self) -> dict | None:
        """The turn clock of an open tournament's games (None for built-in bots only)."""
        return dict(self.clock) if self.open else None

    @property
    def open(self) -> bool:
        """Whether an account takes part (its games are played turn by turn)."""
        return any(is_account(entry) for entry in self.bots)

    @property
    def turn_by_turn(self) -> bool:
        """Whether its games are played turn by turn, one bot move per job (an open
        tournament, or one with a searching bot, `domain.bots`: a search takes its budget per
        move, and a game job would hold a worker for whole games of them)."""
        if self.open:
            return True
        bots = get_rules(self.game).bots
        return any(bots.searching(entry) for entry in self.bots)

    @property
    def accounts(self) -> list[str]:
        """The account names among the entries, in entry order."""
        return [account_name(entry) for entry in self.bots if is_account(entry)]

    def plan(self, index: int) -> schedule.PlannedGame:
        """Seating and deal of game `index`."""
        return schedule.planned(
            self.format, len(self.bots), self.players_per_game, self.games_per_table, index
        )

    def deal_games(self, index: int) -> range:
        """The games that play the same deal as game `index` (itself alone but in duplicate)."""
        return schedule.deal_games(self.format, self.players_per_game, self.games_per_table, index)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["bots"] = list(self.bots)
        data["options"] = self.game_options
        data["clock"] = dict(self.clock)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> TournamentSpec:
        return cls(
            game=data["game"],
            bots=tuple(data["bots"]),
            players_per_game=int(data["players_per_game"]),
            games=int(data["games"]),
            seed=data["seed"],
            games_per_job=int(data.get("games_per_job", 1)),
            salt=data.get("salt"),
            options=tuple(sorted(data.get("options", {}).items())),
            format=data.get("format", schedule.ROTATION),
            games_per_table=int(data.get("games_per_table", 0)),
            clock=tuple(sorted(data.get("clock", {}).items())),
            concurrency=int(data.get("concurrency", DEFAULT_CONCURRENCY)),
            parallel_per_account=bool(data.get("parallel_per_account", False)),
            match=data.get("match", SINGLE),
            # a spec stored before `rated`: rated when an account entered, as now by default
            rated=bool(data.get("rated", any(is_account(b) for b in data["bots"]))),
        )


def new_seed() -> str:
    """A server-drawn tournament seed (used when the client gives none)."""
    return secrets.token_hex(32)


def new_salt() -> str:
    """The server's secret share of a served tournament's randomness (R1)."""
    return secrets.token_hex(32)


def make_spec(
    game: str,
    bots: list[str],
    players_per_game: int | None,
    games: int | None,
    seed: str | None,
    games_per_job: int = GAMES_PER_JOB,
    options: dict | None = None,
    *,
    format: str = schedule.ROTATION,
    games_per_table: int | None = None,
    clock: dict | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    parallel_per_account: bool = False,
    match: str = SINGLE,
    rated: bool | None = None,
) -> TournamentSpec:
    """A checked spec; InvalidTournament names what is wrong.

    `players_per_game` defaults to the number of entries; `games` is required for a
    rotation and follows from `games_per_table` (default: one per seat) otherwise.
    Whether an account entry names an existing account is for the caller to check.
    `rated` defaults to whether an account is entered (built-in bots alone are not rated:
    a rating moves only by a game a player agreed to; the caller refuses `rated` then).
    """
    from domain.registry import game_names, get_rules

    if game not in game_names():
        raise InvalidTournament(f"unknown game {game!r}; known: {', '.join(game_names())}")
    rules = get_rules(game)
    if not 2 <= len(bots) <= MAX_ENTRIES:
        raise InvalidTournament(f"a tournament takes 2 to {MAX_ENTRIES} entries")
    malformed = sorted(b for b in bots if is_account(b) and not ACCOUNT_ENTRY.match(b))
    if malformed:
        raise InvalidTournament(f"malformed account entries {malformed}: write @name")
    unknown = sorted(set(b for b in bots if not is_account(b) and b not in rules.bots))
    if unknown:
        raise InvalidTournament(f"unknown bots {unknown}; {game} has {sorted(rules.bots)}")
    seats = len(bots) if players_per_game is None else players_per_game
    if not rules.min_players <= seats <= rules.max_players:
        raise InvalidTournament(
            f"{game} takes {rules.min_players} to {rules.max_players} players per game"
        )
    if seats > len(bots):
        raise InvalidTournament("players_per_game may not exceed the number of entries")
    games, games_per_table = _games_of(format, len(bots), seats, games, games_per_table)
    if format == schedule.DUPLICATE and any(is_account(b) for b in bots):
        raise InvalidTournament(
            "duplicate deals are for entries that run here and keep nothing between games "
            "(built-in bots): an outside program could remember a deal and exploit it in "
            "the deal's next game; use rotation or round_robin with accounts"
        )
    if games_per_job < 1:
        raise InvalidTournament("games_per_job must be at least 1")
    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise InvalidTournament(f"concurrency must be 1 to {MAX_CONCURRENCY}")
    try:
        normalized = rules.normalize_options(options or {})
    except DomainError as error:
        raise InvalidTournament(f"options: {error.message}") from error
    clock = {**DEFAULT_CLOCK, **(clock or {})}
    problem = fallback_problem(rules.bots, clock["fallback"])
    if problem is not None:
        raise InvalidTournament(f"clock: {problem}")
    _check_match(match, game, options or {}, format)
    return TournamentSpec(
        game,
        tuple(bots),
        seats,
        games,
        seed or new_seed(),
        games_per_job,
        options=tuple(sorted(normalized.items())),
        format=format,
        games_per_table=games_per_table,
        clock=tuple(sorted(clock.items())),
        concurrency=concurrency,
        parallel_per_account=parallel_per_account,
        match=match,
        rated=any(is_account(b) for b in bots) if rated is None else rated,
    )


def _check_match(match: str, game: str, options: dict, format: str) -> None:
    """InvalidTournament unless the match format fits: `two_boards` is for keltis-dice
    tournaments, not duplicate (a deal per board would need its own rotation), with the board
    left to the match. Account entries and searching bots play it turn by turn."""
    if match == SINGLE:
        return
    if match != TWO_BOARDS:
        raise InvalidTournament(f"unknown match {match!r}; known: {SINGLE}, {TWO_BOARDS}")
    if game != "keltis-dice":
        raise InvalidTournament("the two_boards match is a keltis-dice format")
    if "board" in options:
        raise InvalidTournament("a two_boards match plays both boards: leave out options.board")
    if format == schedule.DUPLICATE:
        raise InvalidTournament("two_boards matches are not played in duplicate deals")


def _games_of(
    fmt: str, entries: int, seats: int, games: int | None, games_per_table: int | None
) -> tuple[int, int]:
    """(games, games_per_table) of a format, checked."""
    if fmt not in schedule.FORMATS:
        raise InvalidTournament(f"unknown format {fmt!r}; known: {', '.join(schedule.FORMATS)}")
    if fmt == schedule.ROTATION:
        if games_per_table is not None:
            raise InvalidTournament("games_per_table is for round_robin and duplicate")
        if games is None or not 1 <= games <= MAX_GAMES:
            raise InvalidTournament(f"games must be 1 to {MAX_GAMES}")
        return games, 0
    per_table = seats if games_per_table is None else games_per_table
    if per_table < 1:
        raise InvalidTournament("games_per_table must be at least 1")
    if fmt == schedule.DUPLICATE and per_table % seats:
        raise InvalidTournament(
            f"games_per_table must be a multiple of players_per_game ({seats}) in duplicate: "
            "each deal is played once per seat rotation"
        )
    most = schedule.max_games_per_table(entries, seats)
    if most == 0:
        raise InvalidTournament(f"{entries} entries are too many for tables of {seats}")
    if per_table > most:
        raise InvalidTournament(
            f"games_per_table is at most {most} for {entries} entries at tables of {seats}"
        )
    total = schedule.total_games(fmt, entries, seats, per_table)
    if total > MAX_GAMES:
        raise InvalidTournament(f"{total} games: a tournament has at most {MAX_GAMES}")
    if games is not None and games != total:
        raise InvalidTournament(
            f"a {fmt} of these entries has {total} games (tables x games_per_table); "
            "leave games out or give that number"
        )
    return total, per_table
