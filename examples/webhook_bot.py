"""A webhook bot: a small HTTP server the Keltis service POSTs each of its turns to.

    .venv/bin/python examples/webhook_bot.py --port 9101 --name hookbot

Signs up once (key and secret saved in ~/.config/keltis/, 0600), so a restart takes the account
back; the kit checks each call's signature, refuses stale and replayed calls, and so on.
"""

import random

from keltis_client.cli import bot_parser, connect
from keltis_client.webhook import make_server


def choose(view, legal_moves):
    """Draw from the deck when drawing, otherwise any legal move."""
    deck = [move for move in legal_moves if move.get("source") == "deck"]
    return deck[0] if deck else random.choice(legal_moves)


if __name__ == "__main__":
    parser = bot_parser(__doc__.splitlines()[0], "hookbot")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9101)
    args = parser.parse_args()
    client = connect(args, webhook=f"http://{args.host}:{args.port}/move")
    server = make_server(client.webhook_secret, choose, lambda c: True, args.host, args.port)
    print(f"account {client.name} serving on port {args.port}", flush=True)
    server.serve_forever()
