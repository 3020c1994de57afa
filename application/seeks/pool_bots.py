"""The rated pool's built-in bots: which ones a seek that found no person gets, and when.

By default the pool offers the five levels (KELTIS_POOL_BOTS), so a lone seeker on a fresh
server still gets a game: after KELTIS_POOL_BOT_WAIT_S (5) without a person, the bot closest
in rating joins (application.seeks.pairing.bots_for). A level's rating is its shipped
calibration (application.ladder.levels: the one people see on the level cards), not its
ladder rating, which a few games against people would push about; any other bot's is its
ladder rating (unrated: a new rating's 0).

The seek's answer tells the seeker the same choice in advance (`pool_bots`: the bots and the
seconds until they join), so "Play now" can count down; and, when the account's bot CPU
budget cannot pay for them now (the pass would be refused their charge), that they do not
join (`refused`), so "Play now" keeps looking for a person and says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import settings
from application.budget import service as budget
from application.games.service import GameService
from application.ladder.levels import calibration
from application.seeks import pairing
from domain.levels import level_of
from ladder.entries import participant_id
from store.ladder.records import LadderStore
from store.seeks.records import SeekStore


def rules_from_env() -> pairing.PairingRules:
    """The pairing rules the settings give (KELTIS_SEEK_*, KELTIS_POOL_BOT*)."""
    configured = settings.current()
    return pairing.PairingRules(
        base_range=configured.seek_base_range,
        widen_per_s=configured.seek_widen_per_s,
        pool_bots=configured.pool_bots,
        bot_wait_ms=int(configured.pool_bot_wait_s * 1000),
    )


def offered(service: GameService, game: str, rules: pairing.PairingRules) -> list[str]:
    """The pool bots that `game` has, in the operator's order."""
    bots = service.rules_for(game).bots
    return [name for name in rules.pool_bots if name in bots]


def level_ordinal(game: str, name: str) -> float | None:
    """A level's calibrated ordinal in `game` (mu - 3 sigma); None for another bot or an
    uncalibrated level."""
    if level_of(name) is None:
        return None
    row = calibration()["games"].get(game, {}).get(name)
    return None if not row or "mu" not in row else row["mu"] - 3 * row["sigma"]


def ordinals(
    ladder: LadderStore, games: Iterable[str], names: Iterable[str]
) -> dict[tuple[str, str], float]:
    """(game, bot name) -> the ordinal pairing compares with the seeker's (see the module)."""
    found, wanted = {}, set()
    for game in set(games):
        for name in names:
            calibrated = level_ordinal(game, name)
            if calibrated is None:
                wanted.add((game, participant_id(name, bot=True)))
            else:
                found[(game, name)] = calibrated
    for (game, pid), rating in ladder.ratings(wanted).items():
        found[(game, pid.split(":", 1)[1])] = rating.ordinal
    return found


def upcoming(
    service: GameService,
    data: Mapping,
    since: int,
    now: int,
    rules: pairing.PairingRules | None = None,
) -> dict | None:
    """What a seek (its stored `data`, opened at `since`) is told of its pool bots: the bots
    that would join and the seconds until they may (at the next pairing pass after it);
    None when the pool offers none for its game."""
    rules = rules or rules_from_env()
    names = offered(service, data["game"], rules)
    if not names:
        return None
    game, account = data["game"], data["account"]
    me = participant_id(account, bot=False)
    ladder = LadderStore(service.client)
    rating = ladder.ratings({(game, me)}).get((game, me))
    window_ms = int(settings.current().seek_repeat_window_s * 1000)
    folded = account.lower()
    recent = SeekStore(service.client).recent([folded], now - window_ms).get(folded, set())
    candidate = pairing.Candidate(
        data["id"],
        pairing.pool_key(data),
        folded,
        account,
        int(data["players"]),
        0.0 if rating is None else rating.ordinal,
        max(0, now - since),
        frozenset(recent),
    )
    bots = pairing.bots_for(candidate, names, ordinals(ladder, [game], names))
    waits_ms = max(0, since + rules.bot_wait_ms - now)
    return {
        "bots": list(bots),
        "joins_in_s": round(waits_ms / 1000, 1),
        "refused": refused(service, game, account, bots),
    }


def refused(service: GameService, game: str, account: str, bots) -> dict | None:
    """Why `bots` cannot join a seek of `account` now, as the pairing pass would find when
    it charges their CPU estimate to the account's budget (application.budget.service):
    {"code": "cpu_budget_exceeded", "retry_after_s", "budget_seconds", "remaining_seconds",
    "requested_seconds"}; None when they may."""
    budgets = budget.account_budgets(service.client)
    if budgets is None or not bots:
        return None
    players = [{"account": account}] + [{"name": bot, "bot": bot} for bot in bots]
    cost = budget.game_seconds(game, players)
    refusal = budgets.refusal(budget.Payer.of("", account.lower()), cost)
    if refusal is None:
        return None
    return {"code": refusal.code, "retry_after_s": refusal.retry_after_s, **refusal.details}
