"""Standings as CSV and JSON documents (the CSV: one line per entry; the pairs table is in
the JSON only)."""

from __future__ import annotations

import csv
import io
import json

CSV_COLUMNS = [
    "bot",
    "games",
    "wins",
    "shared_wins",
    "win_rate",
    "mean_score",
    "score_ci95_low",
    "score_ci95_high",
    "timeouts",
    "forfeits",
    "rating_mu",
    "rating_sigma",
    "rating_ordinal",
    "seat_games",
]


def csv_rows(rows: list[dict]) -> list[dict]:
    """Standings rows flattened to the CSV columns."""
    return [
        {
            "bot": row["bot"],
            "games": row["games"],
            "wins": row["wins"],
            "shared_wins": row["shared_wins"],
            "win_rate": row["win_rate"],
            "mean_score": row["mean_score"],
            "score_ci95_low": row["score_ci95"][0],
            "score_ci95_high": row["score_ci95"][1],
            "timeouts": row.get("timeouts", 0),
            "forfeits": row.get("forfeits", 0),
            "rating_mu": row["rating"]["mu"],
            "rating_sigma": row["rating"]["sigma"],
            "rating_ordinal": row["rating"]["ordinal"],
            "seat_games": " ".join(str(n) for n in row["seat_games"]),
        }
        for row in rows
    ]


def standings_csv(rows: list[dict]) -> str:
    """CSV text (header line first, one line per entry)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(csv_rows(rows))
    return buffer.getvalue()


def standings_json(summary: dict) -> str:
    """A tournament summary (spec, progress, standings) as indented JSON text."""
    return json.dumps(summary, indent=1) + "\n"
