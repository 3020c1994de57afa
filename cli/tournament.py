"""`keltis tournament`: a bot-vs-bot tournament in-process (default) or on a server.

With `--server URL` the tournament is POSTed to /v1/tournaments and its progress polled
until every game is over; its games are ordinary stored games (replays downloadable).
In-process, game k of a rotation is `keltis simulate`'s game k of the same seed; a server
salts the seed with its own secret (R1) and publishes the salt at the end. `--format`
picks rotation (default), round_robin or duplicate (`--games-per-table`; `--games` then
follows and may be left out). Account entries (`@name`) play on a server only, each once
it entered itself: `--key` (repeatable) enters the account of each key given. Either way
the output is the standings (games, wins, shared wins, mean score with 95% interval,
timeouts, forfeits, openskill rating) and the pairs table (A - B per deal or per game).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from cli.options import option_flag, parse_option_pairs
from domain.registry import game_names

POLL_S = 0.5
DEFAULT_GAMES = 100


def _print_table(document: dict) -> None:
    head = f"{document['game']} {document.get('format', 'rotation')}"
    head += f": {document['progress']['done']} games"
    click.echo(f"{head}, {document['players_per_game']} per game, tournament {document['id']}")
    click.echo(
        f"{'bot':<12}{'games':>7}{'wins':>7}{'shared':>8}{'win%':>8}"
        f"  {'mean score (95% CI)':<26}{'rating mu/sigma/ordinal'}"
    )
    for row in document["standings"]:
        low, high = row["score_ci95"]
        rating = row["rating"]
        score = f"{row['mean_score']:.2f} ({low:.2f} .. {high:.2f})"
        click.echo(
            f"{row['bot']:<12}{row['games']:>7}{row['wins']:>7}{row['shared_wins']:>8}"
            f"{100 * row['win_rate']:>7.1f}%  {score:<26}"
            f"{rating['mu']:.2f} / {rating['sigma']:.2f} / {rating['ordinal']:.2f}"
        )
    lost = [r for r in document["standings"] if r.get("timeouts") or r.get("forfeits")]
    for row in lost:
        click.echo(f"{row['bot']}: {row['timeouts']} turns timed out, {row['forfeits']} forfeits")
    _print_pairs(document.get("pairs", []))


def _print_pairs(pairs: list[dict]) -> None:
    """The pairs table: A - B, mean score difference per unit with its 95% interval."""
    if not pairs:
        return
    unit = pairs[0]["unit"]
    click.echo(f"pairs: mean score difference A - B per {unit} (95% CI)")
    click.echo(f"{'A':<12}{'B':<12}{unit + 's':>7}  {'A - B (95% CI)':<28}better")
    for pair in pairs:
        a, b = pair["bots"]
        interval = pair["diff_ci95"]
        shown = "n/a" if interval is None else f"{interval[0]:.2f} .. {interval[1]:.2f}"
        diff = f"{pair['mean_diff']:+.2f} ({shown})"
        better = pair["better"] or "-"
        click.echo(f"{a:<12}{b:<12}{pair['n']:>7}  {diff:<28}{better}")


def run_in_process(spec, progress: bool) -> dict:
    """Play every game here; the standings.json document."""
    from tqdm import tqdm

    from tournaments.local import LOCAL_ID, run_local
    from tournaments.summary import compute_table, export_document, summary

    started = int(time.time() * 1000)
    with tqdm(total=spec.games, unit="game", disable=not progress, file=sys.stderr) as bar:
        outcomes = run_local(spec, on_game=lambda _: bar.update(1))
    table = compute_table(spec, outcomes)
    found = summary(LOCAL_ID, spec, started, len(outcomes), table, int(time.time() * 1000), "none")
    return export_document(found, spec, outcomes)


def run_on_server(
    server: str, body: dict, progress: bool, poll_s: float = POLL_S, account_keys=()
) -> dict:
    """POST the tournament, enter the account of each of `account_keys` (an account plays
    only once it entered itself), poll it to the end; the standings.json document."""
    import requests
    from tqdm import tqdm

    base = server.rstrip("/")
    with requests.Session() as http:
        created = http.post(f"{base}/v1/tournaments", json=body, timeout=30)
        if created.status_code != 202:
            raise click.ClickException(f"the server refused: {created.text.strip()}")
        tid = created.json()["id"]
        total = created.json()["progress"]["total"]
        for key in account_keys:
            auth = {"Authorization": f"Bearer {key}"}
            entered = http.post(f"{base}/v1/tournaments/{tid}/entries", headers=auth, timeout=30)
            if entered.status_code != 200:
                raise click.ClickException(f"an entry was refused: {entered.text.strip()}")
        with tqdm(total=total, unit="game", disable=not progress, file=sys.stderr) as bar:
            while True:
                state = http.get(f"{base}/v1/tournaments/{tid}", timeout=30)
                state.raise_for_status()
                done = state.json()["progress"]["done"]
                bar.update(done - bar.n)
                if done >= total:
                    break
                time.sleep(poll_s)
        document = http.get(f"{base}/v1/tournaments/{tid}/standings.json", timeout=60)
        document.raise_for_status()
        return document.json()


@click.command()
@click.option("--game", type=click.Choice(game_names()), default="keltis-card", show_default=True)
@click.option(
    "--bots",
    default="greedy,random",
    show_default=True,
    help="The entries: built-in bots, and bot accounts as @name (with --server).",
)
@click.option("--players", type=int, default=None, help="Seats per game [default: entries].")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=None,
    help=f"Games [default: {DEFAULT_GAMES} in a rotation; tables x games per table otherwise].",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["rotation", "round_robin", "duplicate"]),
    default="rotation",
    show_default=True,
    help="Seat rotation; every table in turn; or every deal once per seat rotation.",
)
@click.option(
    "--games-per-table",
    type=click.IntRange(min=1),
    default=None,
    help="round_robin / duplicate: games of each table [default: one per seat].",
)
@click.option("--seed", default=None, help="Derives every game's seed [default: random].")
@click.option("--server", default=None, help="Run on this service (URL) instead of here.")
@click.option(
    "--key",
    "account_keys",
    multiple=True,
    help="With --server: an account key; its @account enters itself (repeatable).",
)
@click.option("--chart", type=click.Path(dir_okay=False), help="Write a PNG of the scores.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="Write CSV here.")
@option_flag
@click.option("--progress/--no-progress", default=True, help="Progress bar on stderr.")
def tournament(
    game,
    bots,
    players,
    games,
    fmt,
    games_per_table,
    seed,
    server,
    account_keys,
    chart,
    as_json,
    csv_path,
    option_pairs,
    progress,
):
    """Play a bot-vs-bot tournament and print its standings and pairs."""
    from tournaments.errors import InvalidTournament
    from tournaments.export import standings_csv
    from tournaments.local import require_local
    from tournaments.spec import account_name, is_account, make_spec

    names = [name.strip() for name in bots.split(",") if name.strip()]
    if games is None and fmt == "rotation":
        games = DEFAULT_GAMES
    try:
        spec = make_spec(
            game,
            names,
            players,
            games,
            seed,
            options=parse_option_pairs(option_pairs),
            format=fmt,
            games_per_table=games_per_table,
        )
        if not server:
            require_local(spec)
    except InvalidTournament as error:
        raise click.BadParameter(error.message) from error
    if server:
        entries = [{"account": account_name(n)} if is_account(n) else n for n in names]
        body = {"game": game, "bots": entries, "players_per_game": spec.players_per_game}
        body.update({"games": spec.games, "seed": spec.seed, "options": spec.game_options})
        body["format"] = fmt
        if fmt != "rotation":  # a rotation has no tables
            body["games_per_table"] = spec.games_per_table
        document = run_on_server(server, body, progress, account_keys=account_keys)
    else:
        document = run_in_process(spec, progress)
    if csv_path:
        Path(csv_path).write_text(standings_csv(document["standings"]))
    if chart:
        from tournaments.chart import score_chart_png

        labels = [row["bot"] for row in document["standings"]]
        scores = [row["scores"] for row in document["standings"]]
        title = f"{game}: {document['progress']['done']} games"
        Path(chart).write_bytes(score_chart_png(labels, scores, title))
    if as_json:
        click.echo(json.dumps(document))
    else:
        _print_table(document)
