"""Public ids never begin with "-", which a command line would take for an option."""

from __future__ import annotations

import click
from click.testing import CliRunner

from application.common import ids


def test_a_draw_beginning_with_a_dash_is_drawn_again(monkeypatch):
    draws = iter(["-dash", "--two", "ok_id"])
    monkeypatch.setattr(ids.secrets, "token_urlsafe", lambda nbytes: next(draws))
    assert ids.random_id(9) == "ok_id"


def test_ids_are_url_safe_and_of_the_asked_length():
    drawn = {ids.random_id(9) for _ in range(2000)}
    assert len(drawn) == 2000
    assert all(len(one) == 12 and not one.startswith("-") for one in drawn)
    assert set("".join(drawn)) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    )


def test_why_a_leading_dash_matters_click_reads_it_as_an_option():
    @click.command()
    @click.argument("arena_id")
    def close(arena_id):
        click.echo(arena_id)

    assert CliRunner().invoke(close, ["-Ab3"]).exit_code == 2
    assert CliRunner().invoke(close, ["_Ab3"]).output == "_Ab3\n"
