"""However a two-board match's games end in a turn-by-turn tournament,
the match counts once. An open keltis-dice `two_boards` tournament of `greedy` against a
bot account with no client, on a service whose clock the test moves (no sleeps, no
workers, as tests/tournaments/test_endings.py): the advancing pass starts the second game
once the first is over, records the match once both are, a seat forfeited in either game
after it played the first ranks last, a first game in which a seat never moved aborts the
match (no standings result, no rating), a void game voids the match, and a cancelled
tournament cancels the game in play.
"""

from __future__ import annotations

import random

import pytest

from application.bots.turns import play_bot_turns
from application.games import cancel, clocks
from application.games.errors import GameNotFound
from domain.autoplay import choose_move
from replays.chain import build_chain
from replays.verify import verify
from store.ladder.records import LadderStore
from tests.tournaments.open_harness import CLOCK, OpenTournament
from tournaments import seeds

pytestmark = pytest.mark.redis


class Match(OpenTournament):
    """An open two_boards tournament (greedy vs an idle bot account) on a test clock."""

    def __init__(self, redis_client, url: str):
        super().__init__(redis_client, url, "keltis-dice", match="two_boards")

    def gid(self, index: int, board: int = 0) -> str:
        first = seeds.game_id(self.tid, index)
        return f"{first}-b2" if board else first

    def load(self, game_id: str):
        return self.service.load(game_id)[0]

    def seat(self, record) -> int:
        return next(s for s, p in enumerate(record.players) if p.get("account") == self.name)

    def bots_move(self, game_id: str):
        record = self.load(game_id)
        while not record.finished and record.to_move != self.seat(record):
            play_bot_turns(self.service, game_id, record.version)
            record = self.load(game_id)
        return record

    def play_out(self, game_id: str, turns: int | None = None) -> None:
        """The account plays greedy's choices until the game is over by its rules (or for
        `turns` of its moves)."""
        record = self.bots_move(game_id)
        while not record.finished and turns != 0:
            bot = record.rules.bots["greedy"]
            rng = random.Random(record.version)
            move = choose_move(record.rules, record.state, record.to_move, bot, rng)
            self.service.play(game_id, self.key, dict(move.move), lambda *_: {})
            record = self.bots_move(game_id)
            turns = None if turns is None else turns - 1

    def forfeit(self, game_id: str) -> None:
        """The account's clock runs out max_timeouts times: it forfeits."""
        for _ in range(CLOCK["max_timeouts"]):
            record = self.bots_move(game_id)
            self.clock.now = record.deadline + 1
            assert clocks.time_out(self.service, game_id)
        assert self.load(game_id).finished

    def export(self) -> dict:
        return self.http.get(f"/v1/tournaments/{self.tid}/standings.json").json


def ladder_seqs(t: Match, game_ids: list[str]) -> list[int | None]:
    return LadderStore(t.service.client).sequence_of(game_ids)


def assert_void_match(t: Match) -> None:
    """Match 0's first game is over and voids it: the pass records it and launches match 1,
    no second board starts, no standings result, no ladder entry."""
    advanced = t.advance()
    assert advanced.recorded == [0] and advanced.launched == [1]
    with pytest.raises(GameNotFound):
        t.load(t.gid(0, 1))
    document = t.export()
    assert document["outcomes"] == [] and document["cancelled_games"] == [0]
    assert [row["wins"] for row in document["standings"]] == [0, 0]
    assert ladder_seqs(t, [t.gid(0), t.gid(0, 1)]) == [None, None]


def test_a_seat_absent_from_the_first_board_aborts_the_match_unrated_and_unscored(
    private_redis, private_redis_server
):
    """The account never moves: it forfeits by its clock before its first move. As a rated
    game is aborted, the match is: no second board, no standings result, no ladder entry
    (greedy's win over an absent seat is not earned)."""
    t = Match(private_redis, private_redis_server.url)
    assert t.advance().launched == [0]
    t.forfeit(t.gid(0))
    assert_void_match(t)
    # the first board's own view and replay say so too, not a forfeit won by greedy
    result = t.http.get(f"/v1/games/{t.gid(0)}").json["result"]
    assert result["ended"] == "aborted" and result["winners"] == []
    replay = t.service.replay(t.gid(0))
    assert replay["result"]["ended"] == "aborted" and verify(replay).ok
    # a replay exported before the first board said so (the forfeit's result) still verifies
    greedy = next(s for s, p in enumerate(replay["header"]["players"]) if p.get("bot"))
    legacy = {**replay, "result": {**replay["result"], "winners": [greedy], "ended": "forfeit"}}
    legacy["chain"] = build_chain(legacy)
    assert verify(legacy).ok, verify(legacy).message
    forged = {**replay, "result": {**replay["result"], "winners": [1 - greedy]}}
    forged["chain"] = build_chain(forged)
    assert not verify(forged).ok


def test_a_seat_forfeited_on_the_first_board_ranks_last_in_its_summed_match(
    private_redis, private_redis_server
):
    t = Match(private_redis, private_redis_server.url)
    assert t.advance().launched == [0]
    t.play_out(t.gid(0), turns=1)  # the account is in the match: then its clock runs out
    t.forfeit(t.gid(0))
    advanced = t.advance()  # the first board is over: the second starts, nothing recorded
    assert advanced.recorded == [] and advanced.launched == []
    assert t.load(t.gid(0, 1)).tournament["board"] == "advanced"
    assert t.advance().recorded == []  # repeating the pass makes nothing twice
    t.play_out(t.gid(0, 1))
    assert t.advance().recorded == [0]
    (outcome,) = t.export()["outcomes"]
    account_seat = t.seat(t.load(t.gid(0)))
    assert outcome["forfeited"] == [account_seat]
    assert outcome["ranks"][account_seat] == 2 and outcome["winners"] == [1 - account_seat]
    assert outcome["game_ids"] == [t.gid(0), t.gid(0, 1)]
    assert ladder_seqs(t, [t.gid(0, 1)]) == [None]
    (seq,) = ladder_seqs(t, [t.gid(0)])
    (entry,) = LadderStore(t.service.client).entries(t.load(t.gid(0)).game, start=seq - 1, count=1)
    assert entry.seats[account_seat].forfeited and entry.seats[account_seat].rank == 2


def test_a_void_first_board_voids_the_match_and_no_second_board_starts(
    private_redis, private_redis_server
):
    t = Match(private_redis, private_redis_server.url)
    assert t.advance().launched == [0]
    assert cancel.cancel_game(t.service, t.load(t.gid(0)))
    assert_void_match(t)


def test_cancelling_the_tournament_cancels_the_second_board_in_play(
    private_redis, private_redis_server
):
    t = Match(private_redis, private_redis_server.url)
    t.advance()
    t.play_out(t.gid(0))
    t.advance()
    assert not t.load(t.gid(0, 1)).finished
    answer = t.http.post(
        f"/v1/tournaments/{t.tid}/cancel", headers={"Authorization": f"Bearer {t.token}"}
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["status"] == "cancelled" and answer.json["match"] == "two_boards"
    assert t.load(t.gid(0, 1)).cancelled
    assert t.export()["outcomes"] == [] and ladder_seqs(t, [t.gid(0)]) == [None]
