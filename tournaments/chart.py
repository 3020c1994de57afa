"""A PNG chart of each bot entry's score distribution (matplotlib, Agg, imported lazily)."""

from __future__ import annotations

import io
from collections.abc import Sequence


def score_chart_png(labels: Sequence[str], scores: Sequence[Sequence[float]], title: str) -> bytes:
    """Box plot of every entry's scores with its mean marked; the PNG bytes."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(max(4.0, 1.4 * len(labels) + 2), 4.0), dpi=100)
    axes = figure.add_subplot()
    shown = [list(s) if s else [0.0] for s in scores]
    axes.boxplot(shown, showmeans=True)
    axes.set_xticks(range(1, len(labels) + 1), labels=list(labels))
    axes.set_ylabel("score")
    axes.set_title(title)
    axes.grid(axis="y", alpha=0.3)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()
