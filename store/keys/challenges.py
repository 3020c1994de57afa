"""Keys of challenges and two-board matches."""

from __future__ import annotations

from store.keys.games import PREFIX

# ----- challenges and two-board matches -------------------------------
# A challenge's record carries its own tag `{x:<id>}` (one slot per challenge: its closing
# script names it alone); an account's outgoing, incoming and recent challenges, and its
# pair marks and cooldowns as a challenger, carry its account's tag `{a:<name>}`; a match
# carries `{m:<id>}`. The sets the workers' passes walk (expiring, webhook calls, accepted,
# running matches) are one key each. store.challenges.records says how a challenge is
# opened and closed over these slots.


def challenge(challenge_id: str) -> str:
    """Hash: one challenge (its spec as JSON, status, who accepted, its game, `pending`
    while its accepted game is not confirmed made); expires an hour after it closed."""
    return f"{PREFIX}:challenge:{{x:{challenge_id}}}"


def _account(folded_name: str, part: str) -> str:
    return f"{PREFIX}:challenges:{{a:{folded_name}}}:{part}"


def challenges_out(folded_name: str) -> str:
    """Sorted set of an account's open outgoing challenges (id -> ms it expires)."""
    return _account(folded_name, "out")


def challenges_in(folded_name: str) -> str:
    """Sorted set of the open challenges naming an account (id -> ms it expires)."""
    return _account(folded_name, "in")


def challenges_of(folded_name: str) -> str:
    """Sorted set of every recent challenge an account is part of (id -> ms it was made);
    what its event stream watches."""
    return _account(folded_name, "of")


def challenge_pair(challenger: str, invitee: str) -> str:
    """String: the id of the open challenge from one account to another (folded names);
    one at a time, a new one replaces it (expires with it). In the challenger's slot."""
    return _account(challenger, f"pair:{invitee}")


def challenge_cooldown(challenger: str, invitee: str) -> str:
    """String, with a TTL: an account declined a challenge of another, who may not
    challenge it again until it expires. In the challenger's slot."""
    return _account(challenger, f"cooldown:{invitee}")


def challenges_expiring() -> str:
    """Sorted set of the open challenges, scored by when they expire (ms)."""
    return f"{PREFIX}:challenges:expiring"


def challenge_calls() -> str:
    """Sorted set of the webhook calls of challenges due: "<id>:<folded account>" -> ms."""
    return f"{PREFIX}:challenges:calls"


def challenges_accepted() -> str:
    """Sorted set of challenges being accepted whose game may still need creating (id ->
    ms), filed before the accepting script runs (store.challenges.records)."""
    return f"{PREFIX}:challenges:accepted"


def match(match_id: str) -> str:
    """Hash: a two-board match (its spec as JSON, its games, its result)."""
    return f"{PREFIX}:match:{{m:{match_id}}}"


def matches_running() -> str:
    """Sorted set of the matches not over yet (id -> ms created)."""
    return f"{PREFIX}:matches:running"


# ----- the keys before challenges were spread (read only by store.challenges.migrate) ------


def legacy_challenge_pattern() -> str:
    """SCAN pattern of every challenge and match key of the single `{ch}` slot."""
    return f"{PREFIX}:{{ch}}:*"


def legacy_challenge_prefix() -> str:
    return f"{PREFIX}:{{ch}}:"
