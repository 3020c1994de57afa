"""Keep `keltis serve`'s processes running: a child that exits is started again after a
backoff (1 s, 2 s, 4 s, ... up to `max_delay_s`), with a log line; a child that keeps failing
(`max_restarts` restarts within `window_s`) makes the supervisor give up (GaveUp), and its
caller stops everything.

Hand-written: honcho stops everything when one process exits, supervisord is a daemon with
its own configuration and control socket; the loop below is what `keltis serve` needs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field


class GaveUp(RuntimeError):
    """A child kept exiting: `max_restarts` restarts within `window_s` were not enough."""


@dataclass
class Child:
    """One supervised command and its current process."""

    name: str
    command: list[str]
    env: dict[str, str] | None = None
    output: int | None = None  # subprocess.DEVNULL to hide its output, None to inherit
    process: subprocess.Popen | None = None
    restarts: int = 0
    restarted_at: list[float] = field(default_factory=list)  # monotonic times
    due: float | None = None  # when a scheduled restart starts it again

    def start(self) -> None:
        """Start the command in a session of its own: a Ctrl-C at the terminal reaches the
        supervisor alone, which stops the children with SIGTERM (`Supervisor.stop`);
        gunicorn's gevent workers print `SystemExit: 0` tracebacks on a SIGINT of their own."""
        self.process = subprocess.Popen(
            self.command,
            env=self.env,
            stdout=self.output,
            stderr=self.output,
            start_new_session=True,
        )


@dataclass
class Supervisor:
    """Starts children, restarts those that exit (`poll`), stops them all (`stop`)."""

    log: Callable[[str], None] = print
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0
    max_restarts: int = 5
    window_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    children: list[Child] = field(default_factory=list)

    @property
    def processes(self) -> list[subprocess.Popen]:
        """The children's current processes, in the order they were added."""
        return [c.process for c in self.children if c.process is not None]

    def add(self, name: str, command: list[str], env=None, output=None) -> Child:
        """Start `command` as a supervised child named `name` (used in log lines)."""
        child = Child(name, command, env, output)
        child.start()
        self.children.append(child)
        return child

    def exited(self) -> Child | None:
        """A child whose process has exited (and is not restarted yet), if any."""
        return next((c for c in self.children if c.process.poll() is not None), None)

    def poll(self) -> None:
        """Schedule a restart for each child that exited, start those that are due; GaveUp
        when a child exited once more after `max_restarts` restarts within `window_s`."""
        now = self.clock()
        for child in self.children:
            if child.due is not None:
                if now >= child.due:
                    child.due = None
                    child.restarts += 1
                    child.restarted_at.append(now)
                    child.start()
                continue
            code = child.process.poll()
            if code is None:
                continue
            child.restarted_at = [t for t in child.restarted_at if now - t < self.window_s]
            recent = len(child.restarted_at)
            if recent >= self.max_restarts:
                raise GaveUp(
                    f"{child.name} exited ({code}) after {recent} restarts within "
                    f"{self.window_s:g}s; giving up"
                )
            delay = min(self.max_delay_s, self.base_delay_s * 2**recent)
            child.due = now + delay
            self.log(
                f"{child.name} exited ({code}); restarting in {delay:g}s "
                f"(restart {child.restarts + 1})"
            )

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop the children in the reverse order of their start, one kind at a time (the
        web processes before the workers they hand work to; the caller stops Redis after
        both, so no child loses it while it still works): SIGTERM a kind's children, wait
        up to `timeout_s`, SIGKILL the process groups of stragglers (a gunicorn master's
        workers too)."""
        for stage in reversed(stages(self.children)):
            began = time.monotonic()
            killed = stop_together([c.process for c in stage if c.process is not None], timeout_s)
            took = time.monotonic() - began
            forced = f" ({killed} killed)" if killed else ""
            self.log(f"stopped {kind(stage[0])} in {took:.1f}s{forced}")
        for child in self.children:
            child.due = None
        self.children.clear()


def kind(child: Child) -> str:
    """A child's kind: its name without a number (`worker 2` is a `worker`)."""
    return child.name.split()[0] if child.name else ""


def stages(children: list[Child]) -> list[list[Child]]:
    """The children in runs of one kind, in the order they were added."""
    found: list[list[Child]] = []
    for child in children:
        if found and kind(found[-1][0]) == kind(child):
            found[-1].append(child)
        else:
            found.append([child])
    return found


def stop_together(processes: list[subprocess.Popen], timeout_s: float) -> int:
    """SIGTERM every process, wait up to `timeout_s` in all, SIGKILL the stragglers' process
    groups (each child leads its own session, `Child.start`); how many were killed."""
    killed = 0
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    for process in processes:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            killed += 1
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                process.kill()
            process.wait()
    return killed
