"""The multiprocess directory of prometheus_client for one `keltis serve`: every gunicorn
and worker process it starts writes its metric files there (PROMETHEUS_MULTIPROC_DIR), and
`GET /metrics` sums them (application.operations.metrics_scrape)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from application.operations.metrics_scrape import MULTIPROC_ENV

__all__ = ["MULTIPROC_ENV", "fresh_metrics_dir", "remove_metrics_dir"]

FOLDER = "metrics"


def fresh_metrics_dir(var_dir: Path, exclusive: bool) -> Path:
    """A new empty directory under `var_dir`/metrics for one serve. With `exclusive` (this
    serve holds the checkout's lock, so no other serve uses `var_dir`) what earlier serves
    left there is wiped first; otherwise other stacks may be using their own siblings."""
    base = var_dir / FOLDER
    if exclusive:
        shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="serve-", dir=base)).resolve()


def remove_metrics_dir(path: Path | None) -> None:
    """Drop a serve's metrics directory once its processes are gone."""
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)
