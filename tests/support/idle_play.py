"""Move pickers that stall a game on purpose (E4, E5, F5, F6): they read only what every
client sees (the public view and the legal moves), so the same picker drives a game in the
domain and over HTTP."""

from __future__ import annotations


def _pile_of(card: str) -> str:
    return card.split("-")[0]


def card_idle_move(view: dict, moves: list[dict], progress: bool = False) -> dict:
    """keltis-card: a turn that makes no progress (discard, then take a card back from a
    discard pile), or with `progress` one that draws from the draw pile. While no second
    pile can be taken from yet, the turn draws from the draw pile (it is then not idle)."""
    step = view["step"]
    if step == "final_round":
        return next(m for m in moves if m["action"] == "stop")
    nonempty = {pile for pile, cards in view["piles"].items() if cards}
    if step == "play":
        discards = [m for m in moves if m["action"] == "discard"]
        for move in discards:
            if progress or nonempty - {_pile_of(move["card"])}:
                return move
        return discards[0]
    if not progress:
        for move in moves:
            if move["action"] == "draw" and move["source"] != "deck":
                return move
    return next(m for m in moves if m.get("source") == "deck")


def dice_idle_move(view: dict, moves: list[dict], progress: bool = False) -> dict:
    """keltis-dice: keep the dice and pass (no marker moves), or with `progress` move the
    marker that goes least far (a move that cannot end the game by F1 when one exists)."""
    actions = {m["action"] for m in moves}
    if "keep" in actions:
        return next(m for m in moves if m["action"] == "keep")
    if progress:
        steps = {face: view["dice"].count(face) for face in view["dice"]}
        movers = [m for m in moves if m["action"] in ("move", "clover")]
        if movers:
            return min(movers, key=lambda m: (m["action"] == "clover", steps.get(m["color"], 1)))
    return next(m for m in moves if m["action"] == "pass")
