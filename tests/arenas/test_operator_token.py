"""`keltis serve`'s local operator token (cli.operator_token): made once, kept, owner-only."""

from __future__ import annotations

import stat

from cli.operator_token import FILE_NAME, local_operator_token


def test_serve_makes_one_operator_token_readable_by_its_owner_only(tmp_path):
    token = local_operator_token(tmp_path)
    assert token.startswith("kop_") and len(token) > 30
    assert local_operator_token(tmp_path) == token  # kept across restarts
    mode = stat.S_IMODE((tmp_path / FILE_NAME).stat().st_mode)
    assert mode == 0o600
