"""`--option KEY=VALUE` game options, shared by the commands that start games."""

from __future__ import annotations

import click

OPTION_HELP = "A game option, e.g. board=advanced for keltis-dice. Repeatable."


def option_flag(command):
    """Add a repeatable `--option KEY=VALUE` parameter named `option_pairs`."""
    return click.option(
        "--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP
    )(command)


def parse_option_pairs(pairs: tuple[str, ...]) -> dict:
    """`KEY=VALUE` pairs as a dict of strings (the game checks them)."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--option")
        options[key] = value
    return options
