"""A challenge's games' bot work is charged to its challenger's account budget
(application.budget.service), whoever's accept creates the game: all of it when the last invitee
accepts (both games of a two-board match at once), refused (429, the challenge stays open)
when it does not fit, recorded on each game's creator record so the unused part comes back
when that game ends."""

from __future__ import annotations

from dataclasses import replace

from application.budget import service as budget
from application.budget.service import Budgets, Payer, Ticket
from application.challenges.service import Charger
from application.games import cancel
from application.tournaments.matches import TWO_BOARDS
from store.budget.records import BudgetStore
from store.challenges.records import Stored

LOCAL = "127.0.0.1"


class BudgetCharger(Charger):
    """Charges a challenger's budget (`budgets` None: charges nothing, records the
    creator all the same)."""

    def __init__(self, store: BudgetStore, budgets: Budgets | None):
        self.store, self.budgets = store, budgets

    def charge(self, stored: Stored, players: list[dict], games: int) -> Ticket | None:
        if self.budgets is None:
            return None
        seconds = budget.game_seconds(stored.spec["game"], players) * games
        return self.budgets.admit(Payer.of(LOCAL, stored.challenger), seconds)

    def refund(self, ticket: Ticket | None) -> None:
        if ticket is not None and self.budgets is not None:
            self.budgets.refund(ticket)

    def created(self, stored: Stored, game_ids: list[str], ticket: Ticket | None) -> None:
        share = None
        if ticket is not None:
            share = replace(ticket, cost_ms=ticket.cost_ms // len(game_ids))
        rated_match = stored.spec.get("rated") and stored.spec.get("match") == TWO_BOARDS
        for board, game_id in enumerate(game_ids, start=1):
            token = cancel.new_creator_token()
            cancel.record_creator(
                self.store,
                game_id,
                token,
                stored.challenger,
                share,
                rated_match=board if rated_match else None,
            )


def charger_from_env(client) -> BudgetCharger:
    """The workers' charger: the account budget KELTIS_BOT_CPU_BUDGET_ACCOUNT (as the API
    reads it; "off" charges nothing)."""
    budgets = budget.account_budgets(client)
    return BudgetCharger(budgets.store if budgets else BudgetStore(client), budgets)
