"""The events the service itself writes into a game's log (the rules never fold them)."""

from __future__ import annotations

from collections.abc import Mapping

from domain.chance import seed_commitment

GAME_CREATED = "game_created"
SEAT_JOINED = "seat_joined"
GAME_EXPIRED = "game_expired"
TURN_TIMED_OUT = "turn_timed_out"
SEAT_FORFEITED = "seat_forfeited"
GAME_ENDED_EARLY = "game_ended_early"  # not "game_ended": the card rules own that name
BOT_FALLBACK = "bot_fallback"
# Service events that may stand among the turns of a started game (replays/log.py).
IN_PLAY_EVENTS = frozenset({TURN_TIMED_OUT, SEAT_FORFEITED, GAME_ENDED_EARLY, BOT_FALLBACK})
SERVICE_EVENTS = IN_PLAY_EVENTS | {GAME_CREATED, SEAT_JOINED, GAME_EXPIRED}
FALLBACK_BUDGET = "budget"


def game_created(
    game: str,
    options: Mapping,
    players: list[dict],
    seed: bytes,
    invites: Mapping[int, str] | None = None,
    clock: Mapping | None = None,
    tournament: Mapping | None = None,
    rated: bool = False,
    allow_same_account: bool = False,
    aborts: bool = False,
) -> dict:
    """The first event of every log: game, options, seats, and the seed (hidden until the
    end; its SHA-256 is public from the start). `invites` (seat -> SHA-256 of its join code)
    are hidden too; such a seat is listed as `{"open": true, "invite": true}`. `clock` (public)
    is the turn clock: move_seconds, bank_seconds, fallback (a bot), max_timeouts.
    `tournament` (public) places a tournament's game: `id`, `index`, `deal`, `open` (an
    account takes part) and, for a duplicate deal, `deal_games` (the indexes of every game
    of the deal: the game is sealed until they are all over). `rated` (public, written only
    when true): the finished game's result goes into the ladder. `allow_same_account`
    (public, written only when true; unrated games only): one account may take several
    seats (application.games.seating). `aborts` (public, written only when true; unrated
    games only): over before every seat made a move of its own, the game is aborted as a
    rated one is (a two-board match's first game: the match is void then)."""
    hidden: dict = {"seed": seed.hex()}
    if invites:
        hidden["invites"] = {str(seat): digest for seat, digest in invites.items()}
    created = {
        "type": GAME_CREATED,
        "game": game,
        "options": dict(options),
        "players": [stored_player(p) for p in players],
        "seed_sha256": seed_commitment(seed),
        "hidden": hidden,
    }
    if clock:
        created["clock"] = dict(clock)
    if tournament:
        created["tournament"] = dict(tournament)
    if rated:
        created["rated"] = True
    if allow_same_account:
        created["allow_same_account"] = True
    if aborts:
        created["aborts"] = True
    return created


def seat_joined(
    seat: int, name: str, account: str | None = None, clock: Mapping | None = None
) -> dict:
    """A person (or an account, by its key) took an open seat. `clock`: the turn clock the
    game runs from this join on (a webhook account joined a game that had none)."""
    event = {"type": SEAT_JOINED, "seat": seat, "name": name}
    if account is not None:
        event["account"] = account
    if clock:
        event["clock"] = dict(clock)
    return event


def game_expired(waited_ms: int) -> dict:
    """A game whose open seats were never all taken expired after waiting `waited_ms`: it
    can no longer be joined."""
    return {"type": GAME_EXPIRED, "waited_ms": waited_ms}


def turn_timed_out(seat: int, version: int, reason: str = "deadline") -> dict:
    """The seat to move at `version` let its deadline pass; its fallback bot moves for it."""
    return {"type": TURN_TIMED_OUT, "seat": seat, "version": version, "reason": reason}


def seat_forfeited(seat: int, reason: str) -> dict:
    """A seat left the game (`timeouts` or `resigned`): its fallback bot plays its turns and
    it ranks last."""
    return {"type": SEAT_FORFEITED, "seat": seat, "reason": reason}


def bot_fallback(seats, reason: str = FALLBACK_BUDGET, bot: str | None = None) -> dict:
    """From here on the bots of `seats` move by the cheap `bot` (public), for `reason`
    (`budget`: their creator's bot CPU budget is spent, application.budget.service); an empty
    `seats` ends it. Each such move is `bot`'s choice with the move's own random source
    (domain.autoplay.bot_rng at the version before it), so a replay re-derives it."""
    event = {"type": BOT_FALLBACK, "seats": sorted(seats), "reason": reason}
    if bot is not None and seats:
        event["bot"] = bot
    return event


ENDED_FORFEIT = "forfeit"
ENDED_CANCELLED = "cancelled"
# Not an event's reason: a result's `ended` derived from the log (gamelog.results.aborted).
ENDED_ABORTED = "aborted"


def game_ended_early(reason: str = ENDED_FORFEIT) -> dict:
    """The game ended before its rules' end: one seat is left in play (`forfeit`), or its
    tournament was cancelled (`cancelled`: the game is marked cancelled, unrated, unscored)."""
    return {"type": GAME_ENDED_EARLY, "reason": reason}


def stored_player(player: Mapping) -> dict:
    """A seat as `game_created` records it: `{"open": true}`, or a name and maybe a bot or
    an account (`{"name": <account>, "account": <account>}`)."""
    if player.get("open"):
        return {"open": True, "invite": True} if player.get("invite") else {"open": True}
    if player.get("account"):
        return {"name": player["account"], "account": player["account"]}
    stored = {"name": player.get("name") or player["bot"]}
    if player.get("bot"):
        stored["bot"] = player["bot"]
    return stored
