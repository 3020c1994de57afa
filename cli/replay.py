"""`keltis replay`: verify, show and render replays of finished games.

Files may be hostile: every failure is one line (exit status 1) with control characters
escaped and values bounded (replays.shown), and nothing a file holds reaches the terminal raw.
"""

from __future__ import annotations

import sys

import click

from replays.errors import ReplayError
from replays.files import export_lines, is_export, load_replay
from replays.shown import escape, one_line
from replays.verify import verify as verify_replay


@click.group()
def replay():
    """Verify a replay file, step through it, or render it to a self-contained HTML page."""


def _fail(message: str) -> click.ClickException:
    """The one-line error (exit status 1) for `message`, made safe for a terminal."""
    return click.ClickException(one_line(message))


def _echo(text: str, err: bool = False) -> None:
    """Lines we composed, each escaped: no value in them can move the cursor or add a line."""
    click.echo("\n".join(escape(line) for line in text.split("\n")), err=err)


def _load(path: str) -> dict:
    try:
        return load_replay(path)
    except ReplayError as error:
        raise _fail(f"{path}: {error.message}") from None


def _write(target, text: str) -> None:
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise _fail(f"cannot write {target}: {error.strerror or error}") from None


@replay.command()
@click.argument("file", type=click.Path())
def verify(file):
    """Check the hash chain, the seed and every move; exit 1 naming the first bad entry.

    An export (NDJSON, one replay a line: `keltis export`) has every line verified, one
    line per failure (the first MAX_FAILURES_SHOWN) and a summary at the end; exit 1 if any
    line fails."""
    if is_export(file):
        sys.exit(_verify_export(file))
    report = verify_replay(_load(file))
    _echo(report.line(), err=not report.ok)
    sys.exit(0 if report.ok else 1)


MAX_FAILURES_SHOWN = 20


def _verify_export(file) -> int:
    """Verify each line of an export file; the exit status."""
    verified = failed = 0
    try:
        for number, replay in export_lines(file):
            if replay is None:
                continue
            if isinstance(replay, ReplayError):
                report_line = f"FAILED [format]: {replay.message}"
            else:
                report = verify_replay(replay)
                if report.ok:
                    verified += 1
                    continue
                report_line = report.line()
            failed += 1
            if failed <= MAX_FAILURES_SHOWN:
                _echo(one_line(f"line {number}: {report_line}"), err=True)
    except OSError as error:
        raise _fail(f"cannot read {file}: {error.strerror or error}") from None
    if failed > MAX_FAILURES_SHOWN:
        _echo(f"... and {failed - MAX_FAILURES_SHOWN} more failed lines", err=True)
    total = verified + failed
    summary = f"{total} replays: {verified} verified, {failed} failed"
    _echo(("OK: " if failed == 0 else "FAILED: ") + summary, err=failed > 0)
    return 0 if failed == 0 and total > 0 else 1


@replay.command()
@click.argument("file", type=click.Path())
@click.option("--step", "step_number", type=int, default=None, help="Show only this step.")
@click.option(
    "--interactive/--no-interactive",
    default=None,
    help="Wait for Enter between steps (default: when stdout is a terminal).",
)
def show(file, step_number, interactive):
    """Step through a game with every hand revealed."""
    from replays.text import render_step, render_summary
    from replays.timeline import steps

    data = _load(file)
    report = verify_replay(data)
    if not report.ok:
        raise _fail(report.line())
    header = data["header"]
    try:
        all_steps = steps(data)
    except ReplayError as error:
        raise _fail(error.message) from None
    total = len(all_steps)
    if step_number is not None:
        if not 0 <= step_number < total:
            raise _fail(f"--step must be between 0 and {total - 1}")
        _echo(render_step(all_steps[step_number], total, header["game"], header["players"]))
        return
    if interactive is None:
        interactive = sys.stdout.isatty() and sys.stdin.isatty()
    for step in all_steps:
        _echo(render_step(step, total, header["game"], header["players"]))
        if interactive and step["step"] < total - 1 and not _next_step_wanted():
            return
    _echo(render_summary(header, data["result"]))


def _next_step_wanted() -> bool:
    """Wait for Enter; `q` then Enter stops."""
    answer = click.prompt("", default="", show_default=False, prompt_suffix="[Enter, q to quit] ")
    return answer.strip().lower() != "q"


@replay.command()
@click.argument("file", type=click.Path())
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Where to write the page (default: FILE with .html).",
)
@click.option("--unverified", is_flag=True, help="Render even if verification fails.")
def html(file, output, unverified):
    """Write a self-contained HTML viewer of the replay (no network needed). With
    --unverified a replay that fails verification is still drawn, as far as its log replays;
    one that is not a replay at all (a `format` failure) is not."""
    from pathlib import Path

    from replays.html import render_html

    data = _load(file)
    report = verify_replay(data)
    if not report.ok and (not unverified or report.check == "format"):
        raise _fail(report.line())
    try:
        page = render_html(data)
    except ReplayError as error:
        raise _fail(f"cannot draw {file}: {error.message}") from None
    target = Path(output) if output else Path(file).with_suffix(".html")
    _write(target, page)
    _echo(f"wrote {target}")


@replay.command()
@click.argument("game", type=click.Choice(["keltis-card", "keltis-dice"]))
@click.option("--bots", default="random,random", show_default=True, help="One bot per seat.")
@click.option("--seed", default=None, help="64 hex digits (default: a fresh random seed).")
@click.option("--bot-seed", type=int, default=0, show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True)
def play(game, bots, seed, bot_seed, output):
    """Let bots play a game in process and write its replay (no server needed)."""
    import secrets
    import uuid
    from pathlib import Path

    from domain.errors import DomainError
    from replays.build import build_replay
    from replays.files import dump_replay
    from replays.playlog import play_log

    try:
        seed_bytes = bytes.fromhex(seed) if seed else secrets.token_bytes(32)
    except ValueError:
        raise click.BadParameter("the seed is 64 hex digits", param_hint="--seed") from None
    if len(seed_bytes) != 32:
        raise click.BadParameter("the seed is 64 hex digits", param_hint="--seed")
    try:
        entries = play_log(game, bots.split(","), seed_bytes, bot_seed)
    except DomainError as error:
        raise _fail(error.message) from None
    data = build_replay(f"local-{uuid.uuid4().hex[:12]}", entries)
    _write(Path(output), dump_replay(data))
    _echo(f"wrote {output}: {len(data['entries'])} entries, scores {data['result']['scores']}")
