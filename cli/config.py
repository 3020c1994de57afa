"""`keltis config`: the effective settings of this environment, or their reference page."""

from __future__ import annotations

import click

import settings
from settings import describe


@click.command()
@click.option("--markdown", is_flag=True, help="Print docs/CONFIGURATION.md instead.")
def config(markdown: bool) -> None:
    """Print every setting's effective value (secrets masked) and where it came from."""
    if markdown:
        click.echo(describe.markdown(), nl=False)
        return
    try:
        click.echo(describe.table(settings.current()))
    except settings.SettingsError as error:
        raise click.ClickException(str(error)) from None
