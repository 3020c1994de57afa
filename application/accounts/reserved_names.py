"""Names no account may take: every built-in bot's and level's (`greedy`, `level:1`), so no
account poses as one on a seat, in the ratings or in a challenge, and the service's own
words (`admin`, `me`, ...), which read as the operator or as a path.

A name is compared as the look-alike skeleton (application.accounts.name_skeleton) of its letters
and digits, separators left out: `level-1`, `Level_I` and `level1` all read as `level:1`,
`rncts` as `mcts`.
"""

from __future__ import annotations

from application.accounts.name_skeleton import skeleton
from domain.registry import game_names, get_rules

SERVICE_WORDS = frozenset(
    {
        "admin",
        "administrator",
        "anonymous",
        "api",
        "bot",
        "bots",
        "everyone",
        "guest",
        "keltis",
        "me",
        "moderator",
        "nobody",
        "none",
        "null",
        "official",
        "operator",
        "organiser",
        "organizer",
        "root",
        "server",
        "service",
        "spectator",
        "staff",
        "support",
        "system",
    }
)
SEPARATORS = str.maketrans("", "", "-_:")


def _folded(name: str) -> str:
    return skeleton(name.translate(SEPARATORS))


def reserved() -> frozenset[str]:
    """The folded forms of every reserved name (the bots of every game registered now: a
    package may register a game after start, so this is not cached; it is a few dozen)."""
    bots = {bot for game in game_names() for bot in get_rules(game).bots}
    return frozenset(_folded(word) for word in bots | SERVICE_WORDS)


def is_reserved(name: str) -> bool:
    """Whether `name` reads as a built-in bot's, a level's or one of the service's words."""
    return _folded(name) in reserved()
