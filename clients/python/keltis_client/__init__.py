"""keltis-client: a typed client and bot runner for the Keltis game service."""

from keltis_client.client import Client, EventStream
from keltis_client.credentials import Credentials, default_path
from keltis_client.errors import AccountTaken, ApiError, KeltisError
from keltis_client.runner import Accept, BotRunner, Choose, SeekSpec
from keltis_client.types import (
    DECLINE_REASONS,
    Account,
    CardView,
    Challenge,
    DiceView,
    Event,
    Game,
    LegalMoves,
    Move,
    MoveResult,
    Seek,
    View,
)

__all__ = [
    "DECLINE_REASONS",
    "Accept",
    "Account",
    "AccountTaken",
    "ApiError",
    "BotRunner",
    "CardView",
    "Challenge",
    "Choose",
    "Client",
    "Credentials",
    "DiceView",
    "Event",
    "EventStream",
    "Game",
    "KeltisError",
    "LegalMoves",
    "Move",
    "MoveResult",
    "Seek",
    "SeekSpec",
    "View",
    "default_path",
]
