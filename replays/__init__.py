"""Replay format: export, verify, show in a terminal, render to HTML (see FORMAT.md).

Entry points: `replays.build.build_replay`, `replays.verify.verify`,
`replays.html.render_html`; the `keltis replay` commands live in `cli/replay.py`.
"""
