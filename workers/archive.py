"""The archive thread beside a worker (only with KELTIS_ARCHIVE_URL set): every `every_s`
seconds, move the games compacted longer than KELTIS_ARCHIVE_AFTER ago to PostgreSQL, a
batch at a time (application.operations.archive)."""

from __future__ import annotations

from application.operations.archive import archive_after_s, archive_due
from store.archive.tier import archive_from_env
from workers.periodic import DrainThread


class ArchiveThread(DrainThread):
    """Drains the set of games waiting for the archive tier until stopped."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__("log-archive", redis_url, every_s)

    def setup(self) -> None:
        archive_after_s()  # a malformed KELTIS_ARCHIVE_AFTER stops this thread at once, loudly
        super().setup()
        self.archive = archive_from_env()

    def drain(self) -> int:
        return archive_due(self.client, self.archive)
