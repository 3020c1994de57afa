"""Named domain errors; each carries the id of the rule it enforces (see RULES.md)."""


class DomainError(Exception):
    """Base of every rule violation. `code` is stable and machine-readable."""

    code = "domain_error"

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule


class IllegalMove(DomainError):
    """The command breaks a rule of the game (HTTP 422)."""

    code = "illegal_move"


class NotYourTurn(DomainError):
    """The seat may not act now (HTTP 409)."""

    code = "not_your_turn"


class GameOver(DomainError):
    """The game has finished; no command is accepted (HTTP 409)."""

    code = "game_finished"


class InvalidOptions(DomainError):
    """Game options or player count are not allowed (HTTP 422)."""

    code = "invalid_options"
