"""A ledger of the search benchmark's games, so a figure of hundreds of slow games can be
filled over several runs (and sessions) on unchanged code.

Each finished game is one JSON line: the code's fingerprint (every file of `domain/` and
the benchmark's game loop), the match, the bot, the constants tuned, the game's number,
and its result. A run with the ledger on (`MCTS_BENCH_LEDGER=<path>`) reads the games the
ledger holds for the same fingerprint, plays only the missing ones and appends each as it
ends, so a run stopped half-way loses only the games it was playing. A change of the rules
or the search changes the fingerprint, and so starts the figures afresh.
"""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FINGERPRINTED = ("domain/**/*.py", "domain/**/*.json")


def _meaning(path: Path) -> bytes:
    """What a file does: a Python module's syntax tree without its comments and docstrings
    (so rewording them keeps the ledger's games), any other file's bytes."""
    if path.suffix != ".py":
        return path.read_bytes()
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and _is_docstring(body[0]):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree).encode()


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def fingerprint(loop: str, root: Path = ROOT) -> str:
    """A short hash of the code a benchmark game runs: `loop` (the source of the benchmark's
    game loop) and every file of `domain/`, comments and docstrings aside."""
    digest = hashlib.sha256(loop.encode())
    paths = sorted({path for pattern in FINGERPRINTED for path in root.glob(pattern)})
    for path in paths:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(_meaning(path))
    return digest.hexdigest()[:16]


class Ledger:
    """The games of one (fingerprint, match, bot, tune) held in a JSON-lines file."""

    def __init__(self, path: Path, code: str, match: str, bot: str, tune: list[str]):
        self.path = path
        self.key = {"code": code, "match": match, "bot": bot, "tune": ",".join(tune)}

    def load(self) -> dict[int, tuple]:
        """The games already played: number -> (share, lead, times)."""
        games: dict[int, tuple] = {}
        if not self.path.exists():
            return games
        for line in self.path.read_text().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue  # a line cut short by a killed run
            if all(record.get(k) == v for k, v in self.key.items()):
                times = [(ms, bool(choice)) for ms, choice in record["times"]]
                games[record["game"]] = (record["share"], record["lead"], times)
        return games

    def add(self, number: int, result: tuple) -> None:
        """Append one finished game."""
        share, lead, times = result
        record = {
            **self.key,
            "game": number,
            "share": share,
            "lead": lead,
            "times": [[round(ms, 1), int(choice)] for ms, choice in times],
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as out:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
