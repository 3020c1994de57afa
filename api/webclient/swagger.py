"""Swagger UI's files from the pinned `swagger-ui-py` package (its vendored dist), served
from this app: the docs page fetches nothing from anywhere else."""

from __future__ import annotations

from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

# The files the docs page loads, and their media types.
FILES = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css"}


@lru_cache(maxsize=1)
def static_dir() -> Path:
    """The package's static folder, found without importing the package."""
    spec = find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("swagger-ui-py is not installed (see requirements.txt)")
    return Path(next(iter(spec.submodule_search_locations))) / "static"


@lru_cache(maxsize=4)
def read(name: str) -> bytes:
    """One of FILES."""
    return (static_dir() / name).read_bytes()
