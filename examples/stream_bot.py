"""A bot account that plays every game it is seated in, driven by its event stream.

    .venv/bin/python examples/stream_bot.py --name streambot    # signs up once, then reuses the key
    .venv/bin/python examples/stream_bot.py --seek keltis-card  # and keeps a rated seek open

Built on the bot kit (clients/python: `pip install ./clients/python`): the key is saved in
~/.config/keltis/ (0600) on the first start, so a restart takes the same account back.
"""

import random

from keltis_client import BotRunner, SeekSpec
from keltis_client.cli import bot_parser, connect


def choose(view, legal_moves):
    """Draw from the deck when drawing, otherwise any legal move."""
    deck = [move for move in legal_moves if move.get("source") == "deck"]
    return deck[0] if deck else random.choice(legal_moves)


if __name__ == "__main__":
    parser = bot_parser(__doc__.splitlines()[0], "streambot")
    parser.add_argument("--seek", metavar="GAME", help="keep a seek for this game open")
    args = parser.parse_args()
    seek = SeekSpec(args.seek) if args.seek else None
    runner = BotRunner(connect(args), choose, accept=lambda challenge: True, seek=seek)
    for game in runner.run(args.games):
        print(f"finished {game}")
