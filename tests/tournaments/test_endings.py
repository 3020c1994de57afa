"""However a tournament game ends, its tournament goes on, and the game
counts the same way in the standings (GET /v1/tournaments/{id}, standings.json/csv), the
ladder and the export.

An open tournament of `greedy` against a bot account with no client behind it, a 1 s clock
and max_timeouts 2, played in this process on a service whose clock the test moves (no
sleeps, no workers): game 0 is ended one way per case, then the tournament is advanced once
and game 1 must start; game 1 ends by forfeit, and the tournament must finish.
"""

from __future__ import annotations

import json
import random

import pytest

from application.bots.turns import play_bot_turns
from application.games import cancel, clocks, stalls
from application.games.service import GameService
from application.games.settle import settle_due
from application.tournaments import open_tournaments
from application.tournaments import service as use_cases
from domain.autoplay import choose_move
from gamelog import events
from gamelog.entries import make_batch
from gamelog.record import fold_entries
from replays.verify import verify
from store.games.stalls import STALL_AFTER
from store.ladder.records import LadderStore
from store.tournaments.records import TournamentStore
from tests.tournaments.open_harness import CLOCK, OpenTournament
from tournaments import seeds

pytestmark = pytest.mark.redis

COUNTED = ("scored", "forfeit", "resigned", "stalled_bot")
VOID = ("cancelled_game", "expired", "forfeit_before_moving")  # the last: aborted
ENDINGS = COUNTED + VOID + ("tournament_cancelled",)


class Open(OpenTournament):
    """An open tournament (greedy vs an account with no client) on a test clock; its deals
    are fixed so that the scored game has one winner, not a tie."""

    def game_id(self, index: int) -> str:
        return seeds.game_id(self.tid, index)

    def load(self, index: int):
        return self.service.load(self.game_id(index))[0]

    def account_seat(self, record) -> int:
        return next(s for s, p in enumerate(record.players) if p.get("account") == self.name)

    def bots_move(self, index: int):
        """Play greedy's turns until the account is to move (or the game is over)."""
        record = self.load(index)
        while not record.finished and record.to_move != self.account_seat(record):
            play_bot_turns(self.service, record.game_id, record.version)
            record = self.load(index)
        return record

    def account_moves(self, record) -> None:
        """One move of the account (greedy's choice), made with its key."""
        seat = record.to_move
        bot = record.rules.bots["greedy"]
        move = choose_move(record.rules, record.state, seat, bot, random.Random(record.version))
        self.service.play(record.game_id, self.key, dict(move.move), lambda *_: {})

    def both_move_once(self, index: int):
        """Play until each seat has made a move of its own (before that a rated game that
        ends is aborted, no result)."""
        record = self.load(index)
        while not record.all_moved:
            if record.to_move == self.account_seat(record):
                self.account_moves(record)
            else:
                play_bot_turns(self.service, record.game_id, record.version)
            record = self.load(index)
        return record

    def time_out_account(self, index: int) -> None:
        """The account's clock runs out once (the deadline passes; the sweep's call)."""
        record = self.bots_move(index)
        self.clock.now = record.deadline + 1
        assert clocks.time_out(self.service, record.game_id)

    def greedy_stalls(self, index: int) -> None:
        """greedy's turn raises STALL_AFTER times: the clock plays its fallback move."""
        record = self.load(index)
        if record.to_move == self.account_seat(record):
            self.account_moves(record)
            record = self.load(index)
        for _ in range(STALL_AFTER):
            stalls.bot_failed(self.service, record, RuntimeError("the bot broke"))
        assert self.load(index).version > record.version


def end_game_0(t: Open, ending: str) -> None:
    """End game 0 the way `ending` says (the tournament launched it, or, for an expiry, a
    game stands under its id that never started)."""
    if ending == "scored":
        record = t.bots_move(0)
        while not record.finished:
            t.account_moves(record)
            record = t.bots_move(0)
    elif ending in ("forfeit", "forfeit_before_moving"):
        if ending == "forfeit":
            t.both_move_once(0)
        for _ in range(CLOCK["max_timeouts"]):
            t.time_out_account(0)
    elif ending == "resigned":
        t.both_move_once(0)
        clocks.resign(t.service, t.game_id(0), t.key)
    elif ending == "stalled_bot":
        t.both_move_once(0)
        for _ in range(CLOCK["max_timeouts"]):
            t.greedy_stalls(0)
    elif ending == "cancelled_game":
        assert cancel.cancel_game(t.service, t.load(0))
    elif ending == "tournament_cancelled":
        answer = t.http.post(
            f"/v1/tournaments/{t.tid}/cancel", headers={"Authorization": f"Bearer {t.token}"}
        )
        assert answer.status_code == 200, answer.json
    assert t.load(0).finished, ending


def expire_before_launch(t: Open) -> None:
    """Game 0's id holds a game with an open seat that expired waiting (a tournament game
    never waits for seats; this is how an expiry would look if one did)."""
    placed = use_cases.placement(t.spec, t.tid, 0)
    record, _, _ = t.service.create(
        "keltis-card",
        [{"bot": "greedy"}, {"open": True}],
        {},
        game_id=t.game_id(0),
        tournament=placed,
        rated=True,
    )
    batch = make_batch(record.version + 1, [events.game_expired(1000)], t.clock(), None, None)
    assert t.service.append_batch(record, batch, fold_entries(record, record.game_id, batch))


def ladder_entry(t: Open, index: int):
    ladder = LadderStore(t.service.client)
    (seq,) = ladder.sequence_of([t.game_id(index)])
    if seq is None:
        return None
    game = t.service.load(t.game_id(index))[0].game  # a sequence number is its game type's
    return ladder.entries(game, start=seq - 1, count=1)[0]


def exported(t: Open) -> dict[str, dict]:
    answer = t.http.get("/v1/games/export", query_string={"tournament": t.tid})
    lines = [json.loads(line) for line in answer.get_data(as_text=True).splitlines() if line]
    replays = [line["replay"] for line in lines if "replay" in line]
    return {replay["header"]["game_id"]: replay for replay in replays}


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_ending_of_a_game_advances_its_tournament_and_counts_alike(
    ending, private_redis, private_redis_server
):
    t = Open(private_redis, private_redis_server.url)
    if ending == "expired":
        expire_before_launch(t)
    assert t.advance().launched == [0]
    if ending != "expired":
        end_game_0(t, ending)
    advanced = t.advance()
    if ending == "tournament_cancelled":
        summary = t.http.get(f"/v1/tournaments/{t.tid}").json
        assert summary["status"] == "cancelled"
        assert summary["progress"]["cancelled"] == 2 and summary["progress"]["running"] == 0
        assert advanced.launched == []
    else:  # the tournament goes on: game 1 starts
        assert advanced.recorded == [0] and advanced.launched == [1], advanced
    settle_due(t.service)
    document = t.http.get(f"/v1/tournaments/{t.tid}/standings.json").json
    summary = t.http.get(f"/v1/tournaments/{t.tid}").json
    assert summary["standings"] == [
        {k: v for k, v in row.items() if k != "scores"} for row in document["standings"]
    ]
    csv_text = t.http.get(f"/v1/tournaments/{t.tid}/standings.csv").get_data(as_text=True)
    entry = ladder_entry(t, 0)
    replays = exported(t)
    if ending in COUNTED:
        (outcome,) = document["outcomes"]
        assert document["progress"]["finished"] == 1 and document["progress"]["cancelled"] == 0
        assert [row["games"] for row in document["standings"]] == [1, 1]
        assert entry is not None, "the ladder counts every counted game"
        assert outcome["ranks"] == [seat.rank for seat in entry.seats]
        assert outcome["scores"] == [seat.score for seat in entry.seats]
        assert outcome["winners"] == [n for n, seat in enumerate(entry.seats) if seat.winner]
        assert outcome["forfeited"] == [n for n, seat in enumerate(entry.seats) if seat.forfeited]
        result = replays[t.game_id(0)]["result"]
        assert result["winners"] == outcome["winners"]
        assert result.get("forfeited", []) == outcome["forfeited"]
        assert result["scores"] == (None if outcome.get("ended") else outcome["scores"])
        wins = {row["bot"]: row["wins"] for row in document["standings"]}
        forfeits = {row["bot"]: row["forfeits"] for row in document["standings"]}
        winner = document["bots"][outcome["entries"][outcome["winners"][0]]]
        assert wins[winner] == 1
        if ending != "scored":  # one seat forfeited, it ranks last
            loser = document["bots"][outcome["entries"][outcome["forfeited"][0]]]
            assert forfeits[loser] == 1 and loser != winner
            assert outcome["ranks"][outcome["forfeited"][0]] == 2
    else:  # void: a cancelled, expired or aborted game is no result anywhere
        assert document["outcomes"] == [] and entry is None
        if ending != "forfeit_before_moving":  # aborted: finished, its replay is kept
            assert t.game_id(0) not in replays
        assert [row["games"] for row in document["standings"]] == [0, 0]
        assert document["progress"]["finished"] == 0
        assert document["progress"]["cancelled"] == (2 if ending == "tournament_cancelled" else 1)
        if ending != "tournament_cancelled":
            assert document["cancelled_games"] == [0]
    assert csv_text.count("\n") == 3  # a header and a line per entry
    if ending == "tournament_cancelled":
        return
    t.both_move_once(1)
    for _ in range(CLOCK["max_timeouts"]):  # game 1: the account's clock runs out
        t.time_out_account(1)
    assert t.advance().recorded == [1]
    final = t.http.get(f"/v1/tournaments/{t.tid}").json
    assert final["status"] == "finished", final["progress"]
    counted = 2 if ending in COUNTED else 1
    assert final["progress"]["finished"] == counted
    assert [row["games"] for row in final["standings"]] == [counted, counted]
    settle_due(t.service)
    assert ladder_entry(t, 1) is not None
    ratings = t.http.get(f"/v1/accounts/{t.name}").json["ratings"]["keltis-card"]
    assert ratings["games"] == counted  # the ladder and the standings count the same games


def test_cancelling_after_a_forfeit_answers_200_and_keeps_the_forfeit(
    private_redis, private_redis_server
):
    """The issue's report: game 0 ended by forfeit, then POST .../cancel answered 500."""
    t = Open(private_redis, private_redis_server.url)
    t.advance()
    t.both_move_once(0)
    for _ in range(CLOCK["max_timeouts"]):
        t.time_out_account(0)
    answer = t.http.post(
        f"/v1/tournaments/{t.tid}/cancel", headers={"Authorization": f"Bearer {t.token}"}
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["status"] == "cancelled"
    assert answer.json["progress"]["finished"] == 1
    assert [row["forfeits"] for row in answer.json["standings"]] == [0, 1]


@pytest.mark.parametrize("players", [2, 3])
def test_a_stalled_bot_of_a_tournament_game_without_a_clock_forfeits_and_it_goes_on(
    players, private_redis, private_redis_server
):
    """A tournament of built-in bots played turn by turn (a searching bot) has no clock:
    a bot that keeps failing forfeits its seat (`bot_failed`) instead of stalling the game,
    and its tournament, for good. With three seats the fallback bot plays the forfeited
    seat to the end, and the replay verifies it. Built-in bots alone: the ladder has none
    of it."""
    service = GameService(private_redis)
    store = TournamentStore(private_redis)
    bots = ["mcts", "greedy", "random"][:players]
    request = {"game": "keltis-card", "bots": bots, "games": 2}
    started = use_cases.start(store, request)
    tid, spec = started.tid, started.spec
    assert spec.turn_by_turn and spec.game_clock is None
    assert open_tournaments.advance(service, store, tid).launched == [0, 1][: spec.concurrency]
    game_id = seeds.game_id(tid, 0)
    record = service.load(game_id)[0]
    while not (record.all_moved and record.bot_to_move() == "mcts"):  # else: aborted
        play_bot_turns(service, game_id, record.version)
        record = service.load(game_id)[0]
    for _ in range(STALL_AFTER):
        stalls.bot_failed(service, record, RuntimeError("the bot broke"))
    record = service.load(game_id)[0]
    assert record.forfeited == {0}
    while not record.finished:  # three seats: the others and seat 0's fallback play on
        assert record.bot_to_move() != "mcts"
        play_bot_turns(service, game_id, record.version)
        record = service.load(game_id)[0]
    assert verify(service.replay(game_id)).ok
    assert 0 in open_tournaments.advance(service, store, tid).recorded
    document = use_cases.describe(store, tid, with_outcomes=True)
    (outcome,) = [o for o in document["outcomes"] if o["index"] == 0]
    assert outcome["forfeited"] == [0] and outcome["ranks"][0] == players
    settle_due(service)  # built-in bots alone: unrated
    assert LadderStore(private_redis).sequence_of([game_id]) == [None]
