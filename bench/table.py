"""Weight of the web table: the files `/play/<id>` loads, found by following
play.html's style sheet and module imports, as served (raw) and gzip-compressed. Prints
table_files, table_bytes and table_gzip_bytes; the game's own data comes on top.

`python -m bench table`
"""

from __future__ import annotations

import gzip
import re

from api import webclient

IMPORTS = re.compile(r"""(?:import|from)\s*(?:[^"';]*?\sfrom\s*)?["']\./([\w.]+)["']""")
LINKS = re.compile(r"""(?:href|src)="/web/([\w.]+)\"""")


def table_files() -> dict[str, str]:
    """Every file the table page loads, by name, with its text."""
    page = webclient._read("play.html")
    files = {"play.html": page}
    todo = LINKS.findall(page)
    while todo:
        name = todo.pop()
        if name in files:
            continue
        text = webclient._read(name)
        files[name] = text
        if name.endswith(".js"):
            todo.extend(IMPORTS.findall(text))
    return files


def run() -> None:
    files = table_files()
    raw = sum(len(text.encode()) for text in files.values())
    packed = sum(len(gzip.compress(text.encode(), 9)) for text in files.values())
    print(f"table_files {len(files)}")
    print(f"table_bytes {raw}")
    print(f"table_gzip_bytes {packed}")


if __name__ == "__main__":
    run()
