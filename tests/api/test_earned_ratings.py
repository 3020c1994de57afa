"""A rating moves only by a game both sides consented to and both sides played: every way of
getting a rated result without that, tried over HTTP against the real stack (gunicorn, a
worker with its clocks, settle, pairing, arena, tournament and match threads, Redis), leaves
no ladder entry; a game both sides agreed to and played is rated (so the absences are not
the settle thread's).

The ways: seats forced on another's account (with the farmer's key, with none, built-in
bots alone, a plain name joining a rated seat, a tournament naming another's account); an
abort before every seat moved (a cancel, a resignation before any move, a two-board match's
first game); a loser's cancel once both moved (refused: the game ends by a result); a seat
that never moved (a ghost that accepted a challenge, a bot game its creator never played,
the rated pool's seekers gone silent after pairing, an entrant of an open tournament of
single games and of two-board matches, an arena entry); a ghost webhook seek (refused);
two accounts of one address in the rated pool (never seated together)."""

from __future__ import annotations

import secrets
import time

import pytest

from store import keys
from store.ladder.records import LadderStore
from tests.api.helpers import bearer, move_each_once_over_http
from tests.seeks.test_live import Events
from tests.workers.processes import served, wait_for
from tournaments import seeds

pytestmark = pytest.mark.redis

CARD, DICE = "keltis-card", "keltis-dice"
FAST = {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 1}
OPERATOR = "op-" + secrets.token_hex(12)
STACK_ENV = {
    "KELTIS_OPERATOR_TOKEN": OPERATOR,  # the test opens an arena
    "KELTIS_SEEK_SHARED_NETWORKS": "",  # every client here shares 127.0.0.1: no exemption
    "KELTIS_POOL_BOTS": "greedy",
    "KELTIS_POOL_BOT_WAIT_S": "1",
    "KELTIS_PAIR_EVERY_S": "0.2",
}


@pytest.fixture(scope="module")
def earned_stack(redis_url):
    with served(redis_url, STACK_ENV) as stack:
        yield stack


@pytest.fixture
def stack(earned_stack, session, redis_client):
    """The stack's base URL, a contract-checked session and its Redis."""
    return earned_stack.base_url, session, redis_client


def sign_up(http, base: str, bot: bool = True, **extra) -> dict:
    made = http.post(
        f"{base}/v1/accounts",
        json={"name": f"er{secrets.token_hex(5)}", "bot": bot, **extra},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    return made.json()


def create(http, base: str, body: dict, key: str | None = None):
    headers = bearer(key) if key else {}
    return http.post(f"{base}/v1/games", json=body, headers=headers, timeout=10)


def finished(http, base: str, game_id: str, timeout_s: float = 60) -> dict:
    def over():
        game = http.get(f"{base}/v1/games/{game_id}", timeout=10).json()
        return game if game["status"] in ("finished", "cancelled") else None

    return wait_for(over, timeout_s, f"game {game_id} over")


def aborted(http, base: str, game_id: str) -> None:
    """The game is over without a result: finished and aborted, or cancelled."""
    game = finished(http, base, game_id)
    if game["status"] == "finished":
        assert game["result"]["ended"] == "aborted" and game["result"]["winners"] == [], game


def two_accounts_game(http, base: str, first: dict, second: dict, **body) -> str:
    """A rated game `first` creates (its key) and `second` joins (its key); its id."""
    players = [{"account": first["name"]}, {"open": True}]
    made = create(
        http, base, {"game": CARD, "players": players, "rated": True, **body}, first["key"]
    )
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    url = f"{base}/v1/games/{game_id}/seats/1/join"
    assert http.post(url, json={}, headers=bearer(second["key"]), timeout=10).status_code == 200
    return game_id


def accepted_challenge(http, base: str, by: dict, to: dict, **offer) -> dict:
    """A rated challenge of `by` to `to`, accepted by `to`: the accept answer."""
    body = {"game": CARD, "opponents": [{"account": to["name"]}], "rated": True, **offer}
    made = http.post(f"{base}/v1/challenges", json=body, headers=bearer(by["key"]), timeout=10)
    assert made.status_code == 201, made.text
    url = f"{base}/v1/challenges/{made.json()['id']}/accept"
    accepted = http.post(url, headers=bearer(to["key"]), timeout=10)
    assert accepted.status_code == 200, accepted.text
    return accepted.json()


def forced_seats(http, base: str, farm: dict, victim: dict) -> list[str]:
    """Seats forced on an account that did not agree: each refused, nothing created."""
    forced = [
        ([{"account": farm["name"]}, {"account": victim["name"]}], farm["key"], 403),
        ([{"bot": "random"}, {"account": victim["name"]}], None, 403),
        ([{"bot": "greedy"}, {"bot": "random"}], farm["key"], 422),  # no one agreed
    ]
    for players, key, status in forced:
        answer = create(http, base, {"game": CARD, "players": players, "rated": True}, key)
        assert answer.status_code == status, answer.text
        code = {403: "seat_needs_consent", 422: "rated_needs_account"}[status]
        assert answer.json()["error"]["code"] == code
    # a rated seat is joined only with an account key: a plain name has no one to rate
    players = [{"account": farm["name"]}, {"open": True}]
    made = create(http, base, {"game": CARD, "players": players, "rated": True}, farm["key"])
    open_game = made.json()["id"]
    url = f"{base}/v1/games/{open_game}/seats/1/join"
    joined = http.post(url, json={"name": f"n{secrets.token_hex(4)}"}, timeout=10)
    assert joined.status_code == 422 and joined.json()["error"]["code"] == "unrated_seat"
    cancelled = http.post(f"{base}/v1/games/{open_game}/cancel", headers=bearer(farm["key"]))
    assert cancelled.status_code == 200, cancelled.text
    return [open_game]


def invited_tournament(http, base: str, farm: dict, victim: dict) -> list[str]:
    """An organiser (the farmer's key) names another's bot account: it is invited, never
    seated until it enters itself with its own key; no game starts."""
    body = {"game": CARD, "bots": ["greedy", "@" + victim["name"]], "games": 1, "clock": FAST}
    made = http.post(f"{base}/v1/tournaments", json=body, headers=bearer(farm["key"]))
    assert made.status_code == 202, made.text
    tid = made.json()["id"]
    summary = http.get(f"{base}/v1/tournaments/{tid}", timeout=10).json()
    assert summary["awaiting_entries"] == [victim["name"]]
    assert summary["progress"]["running"] == 0 and summary["progress"]["done"] == 0
    game_id = seeds.game_id(tid, 0)
    assert http.get(f"{base}/v1/games/{game_id}", timeout=10).status_code == 404
    return [game_id]


def ghost_entrant(http, base: str, ghost: dict, **body) -> list[str]:
    """A bot account enters an open tournament itself (its key) and never moves: its game
    is aborted (void in the standings, no rating); a two-board match is void, no second
    board. The ids of its games."""
    request = {"game": CARD, "bots": ["greedy", "@" + ghost["name"]], "games": 1, "clock": FAST}
    made = http.post(
        f"{base}/v1/tournaments", json={**request, **body}, headers=bearer(ghost["key"])
    )
    assert made.status_code == 202, made.text
    tid = made.json()["id"]

    def over():
        summary = http.get(f"{base}/v1/tournaments/{tid}", timeout=10).json()
        return summary if summary["status"] == "finished" else None

    summary = wait_for(over, 60, f"tournament {tid} over")
    assert summary["progress"]["cancelled"] == 1 and summary["progress"]["finished"] == 0
    assert all(row["wins"] == 0 for row in summary["standings"])
    first = seeds.game_id(tid, 0)
    aborted(http, base, first)  # a match's first game too: unrated, yet aborted
    if body.get("match") == "two_boards":  # and the match is void: no second board
        assert finished(http, base, first)["status"] == "finished"
        assert http.get(f"{base}/v1/games/{first}-b2", timeout=10).status_code == 404
    return [first, f"{first}-b2"]


def ghost_in_arena(http, base: str, ghost: dict) -> list[str]:
    """A bot account joins an arena (its key) and never moves: its game against the
    operator's built-in bot is aborted."""
    ends_at = int(time.time() * 1000) + 600_000
    body = {"name": "earned", "game": CARD, "clock": FAST, "ends_at": ends_at, "bots": ["greedy"]}
    made = http.post(f"{base}/v1/arenas", json=body, headers=bearer(OPERATOR), timeout=10)
    assert made.status_code == 201, made.text
    aid = made.json()["id"]
    url = f"{base}/v1/arenas/{aid}"
    joined = http.post(f"{url}/join", headers=bearer(ghost["key"]), timeout=10)
    assert joined.status_code == 200, joined.text

    def ghost_game():
        rows = http.get(url, timeout=10).json()["leaderboard"]
        return next((r["game_id"] for r in rows if r["account"] == ghost["name"]), None)

    game_id = wait_for(ghost_game, 30, "the arena seats its ghost")
    aborted(http, base, game_id)
    assert http.post(f"{url}/close", headers=bearer(OPERATOR), timeout=10).status_code == 200
    return [game_id]


def ghosts_in_the_pool(http, base: str) -> tuple[list[str], list[dict]]:
    """A webhook bot whose webhook does not answer cannot seek; two accounts of one address
    seeking at once are each seated with another (a pool bot), never together; gone silent
    after pairing, neither game is rated."""
    hook = sign_up(http, base, webhook="http://127.0.0.1:9/turn")  # a closed port
    refused = http.post(f"{base}/v1/seeks", json={"game": CARD}, headers=bearer(hook["key"]))
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "webhook_not_answering"
    seekers = [sign_up(http, base), sign_up(http, base)]
    streams = [Events(base, seeker["key"]) for seeker in seekers]
    try:
        for seeker in seekers:
            body = {"game": CARD, "clock": FAST}
            placed = http.post(f"{base}/v1/seeks", json=body, headers=bearer(seeker["key"]))
            assert placed.status_code == 201, placed.text
        games = [stream.next("game_started", 30)["game"] for stream in streams]
    finally:
        for stream in streams:
            stream.close()
    assert games[0] != games[1]  # one address: each met a pool bot, not the other
    for game_id in games:
        seated = http.get(f"{base}/v1/games/{game_id}", timeout=10).json()["players"]
        assert sorted(p.get("bot") or "" for p in seated) == ["", "greedy"]
        aborted(http, base, game_id)
    return games, [hook, *seekers]


def test_a_rating_moves_only_by_a_game_both_sides_consented_to_and_played(stack):
    base, http, redis_client = stack
    farm, victim, ghost = sign_up(http, base), sign_up(http, base), sign_up(http, base)
    entrants = [sign_up(http, base) for _ in range(3)]
    void_ids = forced_seats(http, base, farm, victim)
    void_ids += invited_tournament(http, base, farm, victim)

    # an abort before every seat moved: cancelled, void
    early = two_accounts_game(http, base, farm, victim)
    cancel = http.post(f"{base}/v1/games/{early}/cancel", headers=bearer(farm["key"]))
    assert cancel.status_code == 200 and cancel.json()["status"] == "cancelled"
    # a resignation before any move (a farm's way: A resigns at once to B): aborted
    resigned_early = accepted_challenge(http, base, farm, victim)["game_id"]
    resign = http.post(f"{base}/v1/games/{resigned_early}/resign", headers=bearer(farm["key"]))
    assert resign.status_code == 200, resign.text
    aborted(http, base, resigned_early)

    # a loser cannot cancel once both moved: 409, the game goes on to a result
    late = two_accounts_game(http, base, farm, victim)
    move_each_once_over_http(base, late, {0: farm["key"], 1: victim["key"]}, http)
    cancel = http.post(f"{base}/v1/games/{late}/cancel", headers=bearer(farm["key"]))
    assert cancel.status_code == 409 and cancel.json()["error"]["code"] == "too_late_to_abort"

    # a seat that never moved: it times out and forfeits before its first move (a ghost
    # that accepted a challenge; a bot game of its own creator): aborted, no one's win
    ghosted = accepted_challenge(http, base, farm, ghost, clock=FAST)["game_id"]
    body = {"game": CARD, "players": [{"bot": "greedy"}, {"account": farm["name"]}]}
    idle = create(http, base, {**body, "rated": True, "clock": FAST}, farm["key"])
    assert idle.status_code == 201, idle.text
    idle = idle.json()["id"]
    for game_id in (ghosted, idle):
        over = finished(http, base, game_id)
        assert over["status"] == "finished" and over["rated"] is True
        aborted(http, base, game_id)

    # a rated two-board match: its first game aborted before any move voids it
    accepted = accepted_challenge(http, base, farm, victim, game=DICE, match="two_boards")
    match_id = accepted["match_id"]
    cancel = http.post(f"{base}/v1/games/{accepted['game_id']}/cancel", headers=bearer(farm["key"]))
    assert cancel.status_code == 200, cancel.text

    def match_over():
        match = http.get(f"{base}/v1/matches/{match_id}", timeout=10).json()
        return match if match["status"] != "running" else None

    assert wait_for(match_over, 30, "the match over")["status"] == "void"

    # entrants who entered themselves and never moved: a tournament of single games, one
    # of two-board matches, an arena
    void_ids += ghost_entrant(http, base, entrants[0])
    void_ids += ghost_entrant(http, base, entrants[1], game=DICE, match="two_boards")
    void_ids += ghost_in_arena(http, base, entrants[2])
    pool_games, pool_accounts = ghosts_in_the_pool(http, base)
    void_ids += [*pool_games, early, resigned_early, ghosted, idle, match_id]

    def settled() -> bool:
        return all(redis_client.zscore(keys.games_to_settle(), g) is None for g in void_ids)

    wait_for(settled, 30, "the games settled")
    # the one game both agreed to and both played is rated, once its loser resigns
    resigned = http.post(f"{base}/v1/games/{late}/resign", headers=bearer(farm["key"]))
    assert resigned.status_code == 200 and resigned.json()["status"] == "finished"
    ladder = LadderStore(redis_client)
    wait_for(lambda: ladder.sequence_of([late]) != [None], 30, "the played game rated")

    def ratings_of(account: dict) -> dict:
        return http.get(f"{base}/v1/accounts/{account['name']}", timeout=10).json()["ratings"]

    # the fold takes the ladder's entries in order: once it has taken the played game's,
    # it has taken every entry the ways above could have left
    wait_for(lambda: ratings_of(farm) and ratings_of(victim), 30, "the played game folded")

    # 0 rated entries from any other way: none of their games is in the ladder, no one
    # forced, aborted or absent has a rating, and the farmer's rating rests on one game
    assert ladder.sequence_of(void_ids) == [None] * len(void_ids)
    for account in [ghost, *entrants, *pool_accounts]:
        assert ratings_of(account) == {}, account["name"]
    for account in (farm, victim):
        ratings = ratings_of(account)
        assert set(ratings) == {CARD} and ratings[CARD]["games"] == 1, ratings
