"""Entry point of the `keltis` command; each subcommand lives in its own module."""

from __future__ import annotations

import importlib

import click

# name -> "module:attribute"; loaded only when that subcommand runs.
SUBCOMMANDS = {
    "simulate": "cli.simulate:simulate",
    "serve": "cli.serve:serve",
    "worker": "cli.worker:worker",
    "replay": "cli.replay:replay",
    "tournament": "cli.tournament:tournament",
    "reindex": "cli.reindex:reindex",
    "ratings": "cli.ratings:ratings",
    "games": "cli.games:games",
    "export": "cli.export:export",
    "arena": "cli.arena:arena",
    "config": "cli.config:config",
}


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when it is used."""

    def list_commands(self, ctx):
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx, cmd_name):
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        return getattr(importlib.import_module(module_name), attribute)


@click.group(cls=LazyGroup)
def cli():
    """Keltis game service: serve, simulate, run tournaments, verify and show replays."""


def main():
    """Console-script entry point."""
    cli()
