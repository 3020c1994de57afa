"""A tiny throwaway game ("toy-race") that exercises the service without the real games.

Each seat holds two secret cards (owner-only); two cards are removed unseen; the deck order
is secret. A turn plays one card from hand (scored, then a secret draw) or passes. The game
ends after three turns per seat.
"""

from __future__ import annotations

from domain.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn

NAME = "toy-race"


class ToyRules:
    name = NAME
    min_players = 2
    max_players = 4

    def __init__(self):
        self.bots = {"first": lambda view, moves, rng: moves[0], "random": _random_bot}

    def normalize_options(self, options):
        unknown = set(options) - {"turns_each"}
        if unknown:
            raise InvalidOptions(f"unknown option {sorted(unknown)[0]}", rule="X1")
        return {"turns_each": int(options.get("turns_each", 3))}

    def start(self, players, options, chance):
        deck = chance.shuffled(list(range(1, 10)) * 2, "deck")
        events = [{"type": "setup", "players": players, "turns": players * options["turns_each"]}]
        for seat in range(players):
            cards = deck[2 * seat : 2 * seat + 2]
            events.append(
                {"type": "dealt", "seat": seat, "owner": seat, "hidden": {"cards": cards}}
            )
        rest = deck[2 * players :]
        events.append({"type": "removed", "hidden": {"cards": rest[:2]}})
        events.append({"type": "deck", "hidden": {"order": rest[2:]}})
        return events

    def fold(self, events):
        state = None
        for event in events:
            state = self.evolve(state, event)
        return state

    def evolve(self, state, event):
        kind = event["type"]
        if kind == "setup":
            n = event["players"]
            return {
                "hands": [[] for _ in range(n)],
                "scores": [0] * n,
                "turn": 0,
                "turns": event["turns"],
                "deck": [],
                "removed": [],
            }
        new = {k: (list(v) if isinstance(v, list) else v) for k, v in state.items()}
        new["hands"] = [list(h) for h in state["hands"]]
        if kind == "dealt":
            new["hands"][event["seat"]] = list(event["hidden"]["cards"])
        elif kind == "removed":
            new["removed"] = list(event["hidden"]["cards"])
        elif kind == "deck":
            new["deck"] = list(event["hidden"]["order"])
        elif kind == "played":
            new["hands"][event["seat"]].remove(event["card"])
            new["scores"][event["seat"]] += event["card"]
        elif kind == "drew":
            new["hands"][event["seat"]].append(new["deck"].pop(0))
        elif kind == "turn_ended":
            new["turn"] += 1
        return new

    def decide(self, state, seat, command, chance):
        if self.to_move(state) is None:
            raise GameOver("the game is over", rule="X9")
        if seat != self.to_move(state):
            raise NotYourTurn("not your turn", rule="X2")
        if command.get("action") == "pass" and set(command) == {"action"}:
            return [{"type": "turn_ended", "seat": seat}]
        if command.get("action") == "play" and set(command) == {"action", "card"}:
            if command["card"] not in state["hands"][seat]:
                raise IllegalMove("that card is not in your hand", rule="X3")
            card = state["deck"][0]
            return [
                {"type": "played", "seat": seat, "card": command["card"]},
                {"type": "drew", "seat": seat, "owner": seat, "hidden": {"card": card}},
                {"type": "turn_ended", "seat": seat},
            ]
        raise IllegalMove("unknown action", rule="X4")

    def legal_moves(self, state, seat):
        if self.to_move(state) != seat:
            return []
        cards = sorted(set(state["hands"][seat]))
        return [{"action": "play", "card": c} for c in cards] + [{"action": "pass"}]

    def to_move(self, state):
        if state["turn"] >= state["turns"]:
            return None
        return state["turn"] % len(state["hands"])

    def phase(self, state):
        return "finished" if self.to_move(state) is None else "active"

    def view(self, state, viewer):
        return {
            "hand": list(state["hands"][viewer]) if viewer is not None else None,
            "hand_sizes": [len(h) for h in state["hands"]],
            "scores": list(state["scores"]),
            "deck_size": len(state["deck"]),
        }

    def full_view(self, state):
        return {
            **self.view(state, None),
            "hands": state["hands"],
            "deck": state["deck"],
            "removed": state["removed"],
        }

    def result(self, state):
        if self.to_move(state) is not None:
            return None
        best = max(state["scores"])
        winners = [s for s, v in enumerate(state["scores"]) if v == best]
        return {
            "scores": list(state["scores"]),
            "winners": winners,
            "shared": len(winners) > 1,
            "breakdown": [],
        }


def _random_bot(view, moves, rng):
    return rng.choice(moves)


RULES = ToyRules()


def register(monkeypatch) -> str:
    """Make "toy-race" a known game for the duration of a test."""
    import domain.registry

    monkeypatch.setitem(domain.registry._MODULES, NAME, __name__)
    return NAME
