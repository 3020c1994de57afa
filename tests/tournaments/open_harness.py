"""An open tournament of `greedy` against a bot account with no client behind it, on a
service whose clock the test moves (no sleeps, no workers): the set-up the tests of how
tournament games end share (test_endings, test_two_boards_endings)."""

from __future__ import annotations

import secrets
from unittest import mock

from api import create_app
from application.accounts.service import AccountService
from application.games.service import GameService
from application.tournaments import open_tournaments
from application.tournaments import service as use_cases
from application.webhooks.policy import WebhookPolicy
from store.tournaments.records import TournamentStore
from tests.api.contract import ContractClient
from tournaments import seeds

CLOCK = {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 2}
# Fixed deals and game ids (the private Redis is flushed before each test), so a game plays
# the same way in every run.
SEED, SALT, TID = "endings-3", "0" * 64, "endings-of-games"


class Clock:
    """The service's clock (ms), moved by the test."""

    def __init__(self):
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        return self.now


class OpenTournament:
    """Two games of `game` between greedy and an idle bot account (`more`: other fields of
    the tournament request), with the service, the account's key and an API test client."""

    def __init__(self, redis_client, url: str, game: str = "keltis-card", **more):
        self.clock = Clock()
        self.service = GameService(redis_client, clock=self.clock)
        self.store = TournamentStore(redis_client)
        self.name = f"idle{secrets.token_hex(4)}"
        accounts = AccountService(redis_client, WebhookPolicy(()))
        self.key = accounts.sign_up(self.name, bot=True, webhook=None).key
        request = {
            "game": game,
            "bots": ["greedy", f"@{self.name}"],
            "games": 2,
            "clock": CLOCK,
            "seed": SEED,
            **more,
        }
        with (  # the same deals and bot choices (they draw on the game id) in every run
            mock.patch.object(use_cases, "new_salt", return_value=SALT),
            mock.patch.object(seeds, "new_tournament_id", return_value=TID),
        ):
            started = use_cases.start(self.store, request, entrant=self.name)  # it entered
        self.tid, self.spec, self.token = started.tid, started.spec, started.token
        app = create_app({"REDIS_URL": url, "TESTING": True})
        app.test_client_class = ContractClient
        self.http = app.test_client()

    def advance(self) -> open_tournaments.Advanced:
        return open_tournaments.advance(self.service, self.store, self.tid)
