"""The command line every example bot shares: server, account, key, credentials, logging."""

from __future__ import annotations

import argparse
import logging
import os

from keltis_client.client import Client
from keltis_client.errors import KeltisError


def bot_parser(description: str, name: str) -> argparse.ArgumentParser:
    """`--server`, `--name`, `--key` (or `$KELTIS_KEY`), `--credentials`, `--games`, `-q`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--server", default=os.environ.get("KELTIS_SERVER", "http://127.0.0.1:8000")
    )
    parser.add_argument("--name", default=name, help="the account (signed up on first start)")
    parser.add_argument(
        "--key", default=os.environ.get("KELTIS_KEY"), help="its key (default: saved)"
    )
    parser.add_argument("--credentials", help="where the key is saved (default ~/.config/keltis/)")
    parser.add_argument("--games", type=int, help="stop after this many finished games")
    parser.add_argument("-q", "--quiet", action="store_true", help="log warnings only")
    return parser


def connect(args: argparse.Namespace, webhook: str | None = None) -> Client:
    """The account the arguments name (signed up once, then its saved key); logging set up.
    A problem (a taken name without a key, a refused key) exits with its message."""
    level = logging.WARNING if args.quiet else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(message)s")
    try:
        client = Client.connect(args.server, args.name, args.key, args.credentials, webhook)
    except (KeltisError, OSError) as error:
        raise SystemExit(f"error: {error}") from None
    logging.getLogger("keltis_client").info(
        "playing as %s on %s (key saved in %s)", client.name, client.server, client.credentials_path
    )
    return client
