"""The service rules that end every game (E4-E6, F5, F6): the rule books let a game run for
ever (keltis-card while nobody draws from the draw pile, keltis-dice while every player
passes), so the service ends one after a run of idle turns or at a turn limit.

Both games count alike: a turn is idle when it made no progress (card: no lay, no wish, no
draw from the draw pile; dice: no marker moved), and the game ends as at its rules' own end
(card: E2, the final round follows; dice: F1) once the players together have played
`IDLE_TURNS` idle turns in a row, or once its `TURN_LIMIT`-th turn is over.
"""

from __future__ import annotations

IDLE_TURNS = 30  # E4, F5
TURN_LIMIT = 400  # E5, F6
IDLE_ENDING = "idle_turns"  # E6: the `ended_by` of a game ended by E4 or F5
LIMIT_ENDING = "turn_limit"  # E6: ... by E5 or F6
SERVICE_ENDINGS = (IDLE_ENDING, LIMIT_ENDING)


def counts_after_turn(turns: int, idle_run: int, progressed: bool) -> tuple[int, int]:
    """(turns played, idle turns in a row) once one more turn is over."""
    return turns + 1, 0 if progressed else idle_run + 1


def service_ending(turns: int, idle_run: int) -> str | None:
    """Why the service rules end the game after a turn, given the counts once it is over:
    `IDLE_ENDING` (E4, F5), `LIMIT_ENDING` (E5, F6), or None (play on). An idle run that
    reaches its limit on the last allowed turn is named for the idle run."""
    if idle_run >= IDLE_TURNS:
        return IDLE_ENDING
    if turns >= TURN_LIMIT:
        return LIMIT_ENDING
    return None
