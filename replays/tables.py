"""Text tables of a game's full view: a generic renderer for any JSON, nicer ones per game."""

from __future__ import annotations

import json

COLOURS = ("brown", "yellow", "pink", "green", "blue")


def render_view(game: str, view: dict, players: list[dict]) -> str:
    """The table of one state; falls back to the generic form for unknown view shapes."""
    renderer = _RENDERERS.get(game)
    if renderer is not None:
        try:
            return renderer(view, players)
        except (KeyError, TypeError, IndexError, AttributeError):
            pass
    return render_generic(view)


def render_generic(value, indent: int = 0) -> str:
    """Any JSON value as indented `key: value` lines, lists of objects as tables."""
    pad = "  " * indent
    if not isinstance(value, dict):
        return pad + cell(value)
    lines = []
    for key, item in value.items():
        if (
            isinstance(item, dict)
            and item
            and any(isinstance(v, dict | list) for v in item.values())
        ):
            lines.append(f"{pad}{key}:")
            lines.append(render_generic(item, indent + 1))
        elif isinstance(item, list) and item and all(isinstance(v, dict) for v in item):
            lines.append(f"{pad}{key}:")
            lines.append(
                table(
                    _columns(item),
                    [[cell(r.get(c)) for c in _columns(item)] for r in item],
                    indent + 1,
                )
            )
        else:
            lines.append(f"{pad}{key}: {cell(item)}")
    return "\n".join(lines)


def cell(value) -> str:
    """A compact one-line form of a JSON value."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(cell(v) for v in value) if value else "(none)"
    if isinstance(value, dict):
        return " ".join(f"{k}={cell(v)}" for k, v in value.items()) if value else "(none)"
    if isinstance(value, str | int | float):
        return str(value)
    return json.dumps(value)


def table(headers: list[str], rows: list[list[str]], indent: int = 0) -> str:
    """Left-aligned columns, widths fitted to the content."""
    widths = [max(len(str(h)), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    pad = "  " * indent
    out = [pad + "  ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True))]
    for row in rows:
        out.append(pad + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return "\n".join(line.rstrip() for line in out)


def _columns(rows: list[dict]) -> list[str]:
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    return columns


def _name(players: list[dict], seat: int) -> str:
    if 0 <= seat < len(players):
        return f"{seat} {players[seat].get('name') or ''}".strip()
    return str(seat)


def render_dice(view: dict, players: list[dict]) -> str:
    """keltis-dice: the dice, then one row per seat with its marker fields per path."""
    head = (
        f"dice: {' '.join(view['dice'])}   rerolled: {cell(view['rerolled'])}   "
        f"supply: {view['supply']}   markers in goal: {view['goal_markers']}"
        f"/{view['goal_threshold']}   to move: {cell(view['to_move'])}"
    )
    headers = ["seat", *COLOURS, "left", "tiles", "score"]
    rows = [
        [
            _name(players, seat["seat"]),
            *(str(seat["markers"].get(c, ".")) for c in COLOURS),
            str(seat["markers_left"]),
            str(seat["tiles"]),
            str(seat["score"]),
        ]
        for seat in view["seats"]
    ]
    return head + "\n" + table(headers, rows)


def _short(card: str, colour: str | None = None) -> str:
    """`blue-7` -> `7` in the blue row, `blue-end` -> `E`, `point-6` -> `p6`."""
    kind, _, value = card.rpartition("-")
    text = "E" if value == "end" else value
    if kind == "point" and colour != "point":
        return "p" + text
    return text if kind == colour else card


def _row_cell(row: dict, colour: str) -> str:
    arrows = {"ascending": "↑", "descending": "↓", "up": "↑", "down": "↓"}
    cards = " ".join(_short(card, colour) for card in row["cards"]) or "."
    mark = arrows.get(str(row.get("direction")), "")
    return cards + mark + (" ■" if row.get("closed") else "")


def render_card(view: dict, players: list[dict]) -> str:
    """keltis-card: deck, piles, stones, then one row per seat and every hand."""
    deck = view.get("deck") or []
    lines = [
        f"deck: {view['deck_size']} cards (next: {' '.join(deck[:6]) or '-'})   "
        f"removed: {view['removed_count']}   stones on table: {cell(view['stones_on_table'])}   "
        f"closed rows: {view['closed_rows']}",
        f"to move: {cell(view['to_move'])} ({view['step']}, draws owed {view['draws_owed']})   "
        f"phase: {view['phase']}",
        "piles: "
        + "   ".join(
            f"{name} {_short(cards[-1], name) if cards else '-'} ({len(cards)})"
            for name, cards in view["piles"].items()
        ),
    ]
    headers = ["seat", *COLOURS, "point", "stones", "score"]
    rows = [
        [
            _name(players, seat["seat"]),
            *(_row_cell(seat["rows"][c], c) for c in COLOURS),
            " ".join(_short(c, "point") for c in seat["point_row"]) or ".",
            cell(seat["stones"]),
            str(seat["score"]),
        ]
        for seat in view["seats"]
    ]
    lines.append(table(headers, rows))
    for seat, hand in enumerate(view.get("hands") or []):
        lines.append(f"hand {_name(players, seat)}: {' '.join(hand) or '(empty)'}")
    if view.get("removed"):
        lines.append(f"removed: {' '.join(view['removed'])}")
    return "\n".join(lines)


_RENDERERS = {"keltis-dice": render_dice, "keltis-card": render_card}
