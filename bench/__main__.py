"""`python -m bench`: run every benchmark module in turn and print its figures."""

from __future__ import annotations

import importlib
import sys

# Each module has a `run()` that prints `name: value` lines.
MODULES = [
    "bench.card",
    "bench.dice",
    "bench.api",
    "bench.cold",
    "bench.inprocess",
    "bench.security",
    "bench.key_replacement",
    "bench.listing",
    "bench.export",
    "bench.tournament",
    "bench.fairness",
    "bench.bulk_share",
    "bench.duplicate",
    "bench.reliability",
    "bench.redis_durability",
    "bench.load",
    "bench.clocks",
    "bench.streams",
    "bench.stream_flood",
    "bench.streams_cluster",
    "bench.failover",
    "bench.scale_out",
    "bench.streams_10k",
    "bench.seeks",
    "bench.webhooks",
    "bench.play_now",
    "bench.webhook_tarpit",
    "bench.ladder",
    "bench.open_tournament",
    "bench.compaction",
    "bench.archive",
    "bench.mcts",
    "bench.challenges",
    "bench.arena",
    "bench.levels",
    "bench.endless",
    "bench.analysis",
    "bench.metrics",
    "bench.page_weight",
    "bench.replay_reads",
    "bench.table",
]


def main(argv: list[str]) -> int:
    """Run the named benchmark modules (all by default)."""
    unknown = set(argv) - {name.split(".")[-1] for name in MODULES}
    if unknown:
        print(f"unknown benchmarks: {sorted(unknown)}", file=sys.stderr)
        return 2
    for name in MODULES:
        if argv and name.split(".")[-1] not in argv:
            continue
        print(f"# {name}", flush=True)
        importlib.import_module(name).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
