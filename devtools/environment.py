"""Environment variables set for a while (the stack's processes inherit them), then put
back as they were, for the tests and the benchmarks."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager

import settings


@contextmanager
def overridden(values: Mapping[str, str], unset: Iterable[str] = ()) -> Iterator[None]:
    """`values` set and the names in `unset` removed inside the block; afterwards every one
    of them is back to its value before (or absent, as it was)."""
    unset = list(unset)
    saved = {name: os.environ.get(name) for name in [*values, *unset]}
    os.environ.update(values)
    for name in unset:
        os.environ.pop(name, None)
    settings.reload()  # this process's own reads follow the block, as its children's do
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        settings.reload()
