"""Route builders shared between the Flask apps of one test process.

The suite builds an app for nearly every API test (some 500 a run). For each of an app's
routes werkzeug writes and compiles two Python functions that build its URL (url_for), about
60 ms of CPU an app, a fifth of what a typical API test costs. The code depends only on the
route's text, its parts and whether unknown arguments are appended, so it is compiled once
per process here and bound to each app's own rule as werkzeug binds it. A rule with defaults
(folded into the code as constants) is compiled as werkzeug does.
"""

from __future__ import annotations

from werkzeug.routing.rules import Rule

_COMPILED: dict[tuple, object] = {}


def share_route_builders() -> None:
    """From now on, a route's builder code is compiled once per process."""
    if getattr(Rule._compile_builder, "shared", False):
        return
    compile_builder = Rule._compile_builder

    def shared_builder(self: Rule, append_unknown: bool = True):
        if self.defaults:
            return compile_builder(self, append_unknown)
        key = (self.rule, tuple(self._trace), append_unknown)
        builder = _COMPILED.get(key)
        if builder is None:
            builder = _COMPILED[key] = compile_builder(self, append_unknown)
        return builder

    shared_builder.shared = True
    Rule._compile_builder = shared_builder
