"""The route builders shared between test apps build the same URLs as werkzeug's own."""

from __future__ import annotations

from flask import Flask

from tests.support.route_builders import share_route_builders


def _app() -> Flask:
    app = Flask("builders")
    app.add_url_rule("/v1/tournaments/<tournament_id>", "tournament", lambda tournament_id: "")
    app.add_url_rule("/v1/games/<game_id>/seats/<int:seat>", "seat", lambda game_id, seat: "")
    pages = lambda page: ""  # noqa: E731 (one view, two rules)
    app.add_url_rule("/pages/", "pages", pages, defaults={"page": 1})
    app.add_url_rule("/pages/<int:page>", "pages", pages)
    return app


def _urls(app: Flask) -> list[str]:
    urls = app.url_map.bind("localhost")
    return [
        urls.build("tournament", {"tournament_id": "t 1/x"}),
        urls.build("tournament", {"tournament_id": "t1", "after": "3"}),
        urls.build("seat", {"game_id": "g1", "seat": 2}),
        urls.build("pages", {"page": 1}),
        urls.build("pages", {"page": 4}),
    ]


def test_two_apps_share_a_routes_builder_and_each_builds_its_own_urls():
    share_route_builders()
    first, second = _app(), _app()
    expected = [
        "/v1/tournaments/t%201/x",
        "/v1/tournaments/t1?after=3",
        "/v1/games/g1/seats/2",
        "/pages/",
        "/pages/4",
    ]
    assert _urls(first) == _urls(second) == expected
    [rule_1] = [r for r in first.url_map.iter_rules() if r.endpoint == "seat"]
    [rule_2] = [r for r in second.url_map.iter_rules() if r.endpoint == "seat"]
    assert rule_1._build.__func__ is rule_2._build.__func__  # compiled once
    assert rule_1._build.__self__ is rule_1 and rule_2._build.__self__ is rule_2
