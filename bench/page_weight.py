"""Bytes a person's browser transfers for the web client's pages: the
lobby and a card table, on a first visit (empty cache) and on a second visit (the browser's
cache), the game's own data (/v1/) left out. Goal: a second visit under 5 KB (5120).

`python -m bench page_weight` (needs Debian's chromium and chromedriver).
"""

from __future__ import annotations

from bench.api import served_stack
from devtools import webpages
from devtools.chromium import start_chromium


def run() -> None:
    """Start the stack, visit each page twice, print `name: value` lines."""
    with served_stack(web_workers=1) as stack:
        base = stack.base_url
        card = webpages.create(base, "keltis-card", [{"name": "ann"}, {"bot": "greedy"}])
        driver = start_chromium(1280, 900)
        try:
            webpages.seat(driver, base, card)
            pages = {
                "lobby": (base + "/", webpages.LOBBY_READY),
                "card_table": (f"{base}/play/{card['id']}", webpages.TABLE_READY),
            }
            for name, (url, ready) in pages.items():
                first, second = webpages.second_visit_bytes(driver, url, ready)
                print(f"page_weight_{name}_first_visit_bytes: {first}")
                print(f"page_weight_{name}_second_visit_bytes: {second}")
        finally:
            driver.quit()


if __name__ == "__main__":
    run()
