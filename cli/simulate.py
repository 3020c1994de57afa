"""`keltis simulate`: bot-vs-bot games in-process, with per-bot statistics.

Seeds (`tournaments.seeds`): game k (counted from 0) of `--seed S` uses the 32-byte game
seed SHA-256(utf8(f"{S}:game:{k}")) and the bot seed int(SHA-256(utf8(f"{S}:bots:{k}"))[:8],
big-endian). Seats rotate: in game k seat i is played by bot entry (i + k) mod n of `--bots`;
game k is game k of `keltis tournament` (in-process) with the same bots and seed.
A win counts only when the entry's seat is the sole winner; a shared win is counted apart.
"""

from __future__ import annotations

import json
import sys

import click

from cli.options import option_flag, parse_option_pairs
from domain.errors import DomainError
from domain.game import evolve_all
from domain.playout import play_game
from domain.registry import game_names, get_rules
from tournaments import schedule
from tournaments.seeds import bot_seed, game_seed
from tournaments.standings import entry_labels, mean_ci95


def seating(entries: int, game: int) -> tuple[int, ...]:
    """Which entry of --bots plays each seat in game `game` (rotating)."""
    return schedule.seating(entries, entries, game)


def summarize(label: str, scores: list[float], wins: int, shared: int) -> dict:
    """Games, wins, shared wins and the mean score with its 95% interval."""
    games = len(scores)
    mean, low, high = mean_ci95(scores)
    return {
        "bot": label,
        "games": games,
        "wins": wins,
        "shared_wins": shared,
        "win_rate": round(wins / games, 4),
        "mean_score": round(mean, 3),
        "score_ci95": [round(low, 3), round(high, 3)],
    }


def run_simulation(
    game: str, bots: list[str], games: int, seed: str, progress: bool, options: dict | None = None
) -> dict:
    """Play `games` games and gather the statistics of every --bots entry."""
    from tqdm import tqdm

    rules = get_rules(game)
    labels = entry_labels(bots)
    scores: list[list[float]] = [[] for _ in bots]
    wins = [0] * len(bots)
    shared = [0] * len(bots)
    for number in tqdm(range(games), desc=game, unit="game", disable=not progress, file=sys.stderr):
        seats = seating(len(bots), number)
        playout = play_game(
            rules,
            [bots[e] for e in seats],
            game_seed(seed, number),
            bot_seed(seed, number),
            options=options,
        )
        result = playout.result
        for seat, entry in enumerate(seats):
            scores[entry].append(result["scores"][seat])
            if seat in result["winners"]:
                if len(result["winners"]) == 1:
                    wins[entry] += 1
                else:
                    shared[entry] += 1
    return {
        "game": game,
        "games": games,
        "seed": seed,
        "options": options or {},
        "bots": [summarize(labels[e], scores[e], wins[e], shared[e]) for e in range(len(bots))],
    }


def parse_options(rules, pairs: tuple[str, ...]) -> dict:
    """`KEY=VALUE` pairs checked by the game's own option rules."""
    try:
        return rules.normalize_options(parse_option_pairs(pairs))
    except DomainError as error:
        raise click.BadParameter(error.message, param_hint="--option") from error


def _print_table(summary: dict) -> None:
    click.echo(f"{summary['game']}: {summary['games']} games, seed {summary['seed']}")
    click.echo(f"{'bot':<12}{'games':>7}{'wins':>7}{'shared':>8}{'win%':>8}  mean score (95% CI)")
    for row in summary["bots"]:
        low, high = row["score_ci95"]
        click.echo(
            f"{row['bot']:<12}{row['games']:>7}{row['wins']:>7}{row['shared_wins']:>8}"
            f"{100 * row['win_rate']:>7.1f}%  {row['mean_score']:.2f} ({low:.2f} .. {high:.2f})"
        )


def _card_board(view: dict) -> str:
    """A readable keltis-card board from a full view."""
    lines = []
    tops = " ".join(f"{name}:{top or '-'}" for name, top in view["pile_tops"].items())
    lines.append(f"  deck {view['deck_size']}  piles {tops}  stones {view['stones_on_table']}")
    for seat in view["seats"]:
        number = seat["seat"]
        lines.append(f"  seat {number}  score {seat['score']}  stones {seat['stones']}")
        lines.append(f"    hand  {' '.join(view['hands'][number])}")
        for colour, row in seat["rows"].items():
            if row["cards"]:
                arrow = {"ascending": "up", "descending": "down"}.get(row["direction"], "")
                closed = " closed" if row["closed"] else ""
                lines.append(f"    {colour:<7}{' '.join(row['cards'])}  {arrow}{closed}")
        if seat["point_row"]:
            lines.append(f"    {'point':<7}{' '.join(seat['point_row'])}")
    return "\n".join(lines)


def show_game(game: str, bots: list[str], seed: str, options: dict | None = None) -> None:
    """Print game 0 of the simulation turn by turn."""
    rules = get_rules(game)
    states = []

    def on_step(seat: int, command: dict, events: list[dict]) -> None:
        states.append((seat, command, events))

    playout = play_game(
        rules, bots, game_seed(seed, 0), bot_seed(seed, 0), options=options, on_step=on_step
    )
    state = rules.fold(playout.events[: len(playout.events) - sum(len(e) for *_, e in states)])
    click.echo(f"{game}: {', '.join(f'seat {i} {b}' for i, b in enumerate(bots))}")
    for seat, command, events in states:
        state = evolve_all(rules.evolve, state, events)
        click.echo(f"seat {seat}: {json.dumps(command)}")
        for event in events:
            if event["type"] in ("final_round_started", "game_ended", "stone_wished"):
                click.echo(f"  * {json.dumps(event)}")
        board_due = game == "keltis-card" and command.get("action") in ("draw", "stop", "lay")
        if board_due and rules.to_move(state) != seat:
            click.echo(_card_board(rules.full_view(state)))
    click.echo(f"result: {json.dumps(playout.result)}")


@click.command()
@click.option("--game", type=click.Choice(game_names()), default="keltis-card", show_default=True)
@click.option("--bots", default="greedy,random", show_default=True, help="One bot per seat.")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", default="1", show_default=True, help="Derives every game's seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as one JSON object.")
@click.option("--show", is_flag=True, help="Print one game turn by turn instead.")
@option_flag
@click.option("--progress/--no-progress", default=True, help="Progress bar on stderr.")
def simulate(game, bots, games, seed, as_json, show, option_pairs, progress):
    """Play bot-vs-bot games in-process and print each bot's results."""
    names = [name.strip() for name in bots.split(",") if name.strip()]
    rules = get_rules(game)
    if not rules.min_players <= len(names) <= rules.max_players:
        raise click.BadParameter(
            f"{game} takes {rules.min_players}-{rules.max_players} bots", param_hint="--bots"
        )
    unknown = sorted(set(name for name in names if name not in rules.bots))
    if unknown:
        raise click.BadParameter(f"unknown bots {unknown}; known: {sorted(rules.bots)}")
    options = parse_options(rules, option_pairs)
    if show:
        show_game(game, names, seed, options)
        return
    summary = run_simulation(game, names, games, seed, progress, options)
    if as_json:
        click.echo(json.dumps(summary))
    else:
        _print_table(summary)
