"""Errors of challenges (application.challenges.service), each a KeltisError of a kind."""

from __future__ import annotations

from domain.errors import KeltisError, Kind


class ChallengeNotFound(KeltisError):
    """No such challenge, or the caller is neither its challenger nor challenged (404)."""

    code = "challenge_not_found"
    kind = Kind.NOT_FOUND


class ChallengeClosed(KeltisError):
    """The challenge was accepted, declined, cancelled or expired already (409)."""

    code = "challenge_closed"
    kind = Kind.CONFLICT

    def __init__(self, status: str):
        super().__init__(f"the challenge is {status} already")


class NotYourChallenge(KeltisError):
    """Only the challenged answer a challenge, only its challenger cancels it (403)."""

    code = "not_your_challenge"
    kind = Kind.FORBIDDEN


class InvalidChallenge(KeltisError):
    """A challenge that cannot be played: oneself, an account twice, a wrong count (422)."""

    code = "invalid_challenge"


class TooManyChallenges(KeltisError):
    """An account's limit of open challenges (outgoing, or incoming for an invitee) (429)."""

    code = "too_many_challenges"
    kind = Kind.RATE_LIMITED
    retry_after_s = 60


class ChallengeCooldown(KeltisError):
    """The account challenged declined this challenger lately (429, Retry-After)."""

    code = "challenge_cooldown"
    kind = Kind.RATE_LIMITED

    def __init__(self, message: str, retry_after_s: int):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class ChallengesRefused(KeltisError):
    """The account challenged takes no challenges from this challenger: its public
    `accepts_challenges` setting says so (403)."""

    code = "challenges_refused"
    kind = Kind.FORBIDDEN
