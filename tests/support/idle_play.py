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


PICKERS = {"keltis-card": card_idle_move, "keltis-dice": dice_idle_move}


def idle_game(game: str, progress_every: int | None = None, label: str = "idle"):
    """A 2-player game played in process by the picker of `game`, a progress turn every
    `progress_every` turns (None: idle as soon as it can, so the game ends by E4/F5;
    IDLE_TURNS - 5: it ends at the turn limit, E5/F6). Deterministic in `label`. Returns
    (seed, opening events, [(seat, move, events)] a turn, the final state)."""
    import hashlib

    from domain.chance import Chance
    from domain.registry import get_rules

    rules = get_rules(game)
    seed = hashlib.sha256(label.encode()).digest()
    chance = Chance(seed)
    opening = rules.start(2, {}, chance)
    state = rules.fold(opening)
    turns = []
    while (seat := rules.to_move(state)) is not None:
        view = rules.view(state, seat)
        moves = [dict(m) for m in rules.legal_moves(state, seat)]
        progress = bool(progress_every) and view["turns"] % progress_every == progress_every - 1
        move = PICKERS[game](view, moves, progress)
        events = rules.decide(state, seat, move, chance)
        for event in events:
            state = rules.evolve(state, event)
        turns.append((seat, move, list(events)))
    return seed, opening, turns, state


def idle_entries(game: str, progress_every: int | None = None, label: str = "idle") -> list[dict]:
    """The stored log of `idle_game(game, progress_every, label)`, seats named ann and bea."""
    from domain.registry import get_rules
    from replays.playlog import log_entries

    seed, opening, turns, _ = idle_game(game, progress_every, label)
    options = get_rules(game).normalize_options({})
    players = [{"name": "ann"}, {"name": "bea"}]
    return log_entries(game, players, seed, options, opening, turns)
