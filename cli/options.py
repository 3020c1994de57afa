"""Options shared by commands: `--option KEY=VALUE` game options of the commands that start
games, `--redis-url` of those that work on the store directly."""

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


redis_url_option = click.option(
    "--redis-url", envvar="REDIS_URL", default=None, help="Default: var/redis.url."
)


def store_url(redis_url: str | None) -> str:
    """`--redis-url`, else REDIS_URL, else var/redis.url; a click error when none is set."""
    from store.core.locate import NoRedisConfigured, redis_url_from_env

    try:
        return redis_url or redis_url_from_env()
    except NoRedisConfigured as error:
        raise click.ClickException(str(error)) from error
