"""The RQ job that plays the turns of bot seats."""

from __future__ import annotations

import hashlib
import logging
import random

import redis
from rq import get_current_job

from domain.errors import DomainError
from store.botqueue import enqueue_bot_turn
from store.service import GameService
from workers.connection import queue_from_env, store_for

log = logging.getLogger(__name__)

MAX_TURNS_PER_JOB = 2000


class BotHasNoMove(DomainError):
    """A bot seat is to move but the rules list no legal move for it."""

    code = "bot_has_no_move"


_services: dict[int, tuple[redis.Redis, GameService]] = {}


def bot_rng(seed_hex: str, game_id: str, version: int) -> random.Random:
    """The bot's random source at one version: deterministic, unknown to other players."""
    material = f"bot:{seed_hex}:{game_id}:{version}".encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))


def service_for(queue: redis.Redis) -> GameService:
    """One GameService (with its state cache) per RQ connection of this process.

    Its store is the queue's own Redis, or REDIS_URL (a Redis Cluster, say) when
    RQ_REDIS_URL puts the queue on a separate server.
    """
    known = _services.get(id(queue))
    if known is None or known[0] is not queue:
        known = (queue, GameService(store_for(queue), queue_client=queue))
        _services[id(queue)] = known
    return known[1]


def play_bot_turns(game_id: str, version: int) -> int:
    """Play bot turns of a game from `version` until a human is to move; returns turns played.

    Does nothing when the game is no longer at `version` (someone else moved first). Every
    move is appended with its expected version, so running this job twice does no harm.
    """
    job = get_current_job()
    service = service_for(job.connection if job is not None else queue_from_env())
    record, _, _ = service.load(game_id)
    if record.version != version:
        return 0
    played = 0
    while played < MAX_TURNS_PER_JOB and record.bot_to_move() and not record.finished:
        batch, after = service.decide(record, record.to_move, _bot_move(record))
        if not service.append_decided(record, batch, after, enqueue=False):
            return played
        record = after
        played += 1
    if record.bot_to_move() and not record.finished:
        enqueue_bot_turn(service.queue_client, game_id, record.version)
    elif played == 0:
        service.refresh_index(record)  # the index said a bot was due: correct it
    return played


def _bot_move(record) -> dict:
    """The move of the bot to move in a stored game."""
    seat = record.to_move
    return bot_command(
        record.rules,
        record.state,
        seat,
        record.rules.bots[record.players[seat]["bot"]],
        bot_rng(record.seed_hex, record.game_id, record.version),
    )


def bot_command(rules, state, seat: int, bot, rng: random.Random) -> dict:
    """The move of the bot of `seat`, over its own view and legal moves only."""
    moves = rules.legal_moves(state, seat)
    if not moves:
        raise BotHasNoMove(f"seat {seat} is to move but has no legal move")
    move = bot(rules.view(state, seat), moves, rng)
    if any(move is legal for legal in moves) or move in moves:
        return move
    log.warning("bot of seat %s proposed a move outside its legal moves; playing the first", seat)
    return moves[0]
