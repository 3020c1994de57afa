"""What a tournament is: a game, its bot entries, seats per game, number of games, a seed."""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass

from domain.errors import DomainError
from tournaments.errors import InvalidTournament

MAX_GAMES = 10_000
MAX_ENTRIES = 8
# Games one RQ job plays in turn: RQ's own bookkeeping costs about a third of a card game,
# so a job plays a few; each game still records its own outcome (progress is per game).
GAMES_PER_JOB = 4


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

    @property
    def game_options(self) -> dict:
        """The options every game of the tournament is created with."""
        return dict(self.options)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["bots"] = list(self.bots)
        data["options"] = self.game_options
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
    games: int,
    seed: str | None,
    games_per_job: int = GAMES_PER_JOB,
    options: dict | None = None,
) -> TournamentSpec:
    """A checked spec; InvalidTournament names what is wrong.

    `players_per_game` defaults to the number of entries.
    """
    from domain.registry import game_names, get_rules

    if game not in game_names():
        raise InvalidTournament(f"unknown game {game!r}; known: {', '.join(game_names())}")
    rules = get_rules(game)
    if not 2 <= len(bots) <= MAX_ENTRIES:
        raise InvalidTournament(f"a tournament takes 2 to {MAX_ENTRIES} bot entries")
    unknown = sorted(set(bots) - set(rules.bots))
    if unknown:
        raise InvalidTournament(f"unknown bots {unknown}; {game} has {sorted(rules.bots)}")
    seats = len(bots) if players_per_game is None else players_per_game
    if not rules.min_players <= seats <= rules.max_players:
        raise InvalidTournament(
            f"{game} takes {rules.min_players} to {rules.max_players} players per game"
        )
    if seats > len(bots):
        raise InvalidTournament("players_per_game may not exceed the number of bot entries")
    if not 1 <= games <= MAX_GAMES:
        raise InvalidTournament(f"games must be 1 to {MAX_GAMES}")
    if games_per_job < 1:
        raise InvalidTournament("games_per_job must be at least 1")
    try:
        normalized = rules.normalize_options(options or {})
    except DomainError as error:
        raise InvalidTournament(f"options: {error.message}") from error
    return TournamentSpec(
        game,
        tuple(bots),
        seats,
        games,
        seed or new_seed(),
        games_per_job,
        options=tuple(sorted(normalized.items())),
    )
