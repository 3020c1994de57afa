"""`keltis worker`: more RQ workers for bot turns and tournaments against REDIS_URL (or a
local serve)."""

from __future__ import annotations

import click

from cli.options import redis_url_option, store_url


@click.command()
@redis_url_option
@click.option("--burst", is_flag=True, help="Stop when the queue is empty.")
@click.option("--sweep-every", default=5.0, show_default=True, help="Seconds; 0 disables.")
@click.option("--stale-after", default=5.0, show_default=True, help="Seconds a bot may lag.")
@click.option("--fork", is_flag=True, help="Run each job in a forked work horse.")
@click.option(
    "--deadline-every", default=0.15, show_default=True, help="Seconds between turn-clock checks."
)
@click.option(
    "--settle-every",
    default=0.25,
    show_default=True,
    help="Seconds between ladder settle passes; 0 disables.",
)
@click.option(
    "--compact-every",
    default=1.0,
    show_default=True,
    help="Seconds between log compaction passes; 0 disables.",
)
@click.option(
    "--metrics-bind",
    envvar="KELTIS_WORKER_METRICS_BIND",
    default=None,
    help="HOST:PORT serving this worker's /metrics (a private address: no token).",
)
@click.option(
    "--interactive-lanes",
    default=1,
    show_default=True,
    help="Threads serving only a person's bot turns (never bulk work); 0 disables.",
)
def worker(
    redis_url,
    burst,
    sweep_every,
    stale_after,
    fork,
    deadline_every,
    settle_every,
    compact_every,
    metrics_bind,
    interactive_lanes,
):
    """Play bot turns (a person's games first, and in a lane of their own) and tournament
    games, re-enqueue lost jobs, expire games that waited too long for seats, time out turns
    whose deadline passed, put finished rated games into the ladder, compact finished games'
    logs."""
    from workers.runner import run_worker

    url = store_url(redis_url)
    click.echo(f"worker on {url}", err=True)
    if metrics_bind:
        from workers.metrics_server import serve_metrics

        try:
            server = serve_metrics(metrics_bind)
        except (ValueError, OSError) as error:
            raise click.ClickException(f"--metrics-bind: {error}") from error
        host, port = server.server_address[:2]
        click.echo(f"worker metrics on {host}:{port} (GET /metrics)", err=True)
    run_worker(
        url,
        burst=burst,
        sweep_every_s=sweep_every,
        stale_after_s=stale_after,
        fork=fork,
        deadline_every_s=deadline_every,
        settle_every_s=settle_every,
        compact_every_s=compact_every,
        interactive_lanes=interactive_lanes,
    )
