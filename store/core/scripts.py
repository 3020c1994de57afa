"""The store's Lua scripts (store/lua), read by name; each store module registers its own."""

from __future__ import annotations

from importlib import resources


def load_script(name: str) -> str:
    """The text of one of the store's Lua scripts."""
    return resources.files("store").joinpath("lua", name).read_text()
