"""Builders for keltis-dice tests: positions, scripted dice and a whole game step by step."""

from __future__ import annotations

import random

from domain.chance import Chance
from domain.dice import RULES
from domain.dice.board import COLORS, load_board
from domain.dice.state import FACE_INDEX, MOVE, DiceState, Step, initial_state


class ScriptedChance:
    """A stand-in for Chance that returns prepared faces, recording the labels asked for."""

    def __init__(self, *rolls: list[str]):
        self.rolls = [list(roll) for roll in rolls]
        self.labels: list[str] = []

    def draws(self, label: str, count: int, bound: int) -> list[int]:
        self.labels.append(label)
        faces = self.rolls.pop(0) if self.rolls else ["stone"] * count
        if len(faces) != count:
            raise ValueError(f"scripted roll {faces} for {count} dice")
        return [FACE_INDEX[face] for face in faces]


def make_state(
    players: int = 2,
    markers: dict[int, dict[str, int]] | None = None,
    tiles: dict[int, int] | None = None,
    supply: int | None = None,
    dice: list[str] | None = None,
    step: str = MOVE,
    to_move: int = 0,
    board: str = "basic",
    rolls: int = 1,
) -> DiceState:
    """A mid-game state: `markers` maps seat -> {colour: field}."""
    state = initial_state(players, load_board(board))
    positions = []
    for seat in range(players):
        fields = (markers or {}).get(seat, {})
        positions.append(tuple(fields.get(color, 0) for color in COLORS))
    held = tuple((tiles or {}).get(seat, 0) for seat in range(players))
    return state.replace(
        positions=tuple(positions),
        tiles=held,
        supply=40 - sum(held) if supply is None else supply,
        dice=tuple(FACE_INDEX[f] for f in (dice or ["brown"] * 5)),
        step=Step(step).value,
        to_move=to_move,
        rolls=rolls,
    )


def apply(state: DiceState, seat: int, command: dict, chance) -> tuple[DiceState, list[dict]]:
    """Decide and evolve one command; returns the new state and its events."""
    events = RULES.decide(state, seat, command, chance)
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def play_game(seed: int, players: int, board: str = "basic", max_steps: int = 5000):
    """A random legal game: (log of events, states after each command, commands)."""
    chance = Chance(seed.to_bytes(32, "big"))
    rng = random.Random(seed)
    log = RULES.start(players, {"board": board}, chance)
    state = RULES.fold(log)
    states, commands = [state], []
    for _ in range(max_steps):
        if RULES.phase(state) == "finished":
            break
        seat = RULES.to_move(state)
        command = rng.choice(RULES.legal_moves(state, seat))
        state, events = apply(state, seat, command, chance)
        log.extend(events)
        states.append(state)
        commands.append((seat, command))
    return log, states, commands, chance
