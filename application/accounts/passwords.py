"""Account passwords: argon2id (argon2-cffi), hashed and verified on the process's native
build threads (application.common.offload), never on the event loop, and a bounded number
waiting for them (PasswordsBusy beyond).

The cost comes from KELTIS_PASSWORD_TIME_COST and KELTIS_PASSWORD_MEMORY_KIB (default:
RFC 9106's low-memory profile, t=3, 64 MiB, 4 lanes). A verification against an unknown
name (or an account without a password) runs against a dummy hash of the same cost, so an
answer's time does not say which names exist.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

import settings
from application.accounts.errors import PasswordsBusy, WeakPassword
from application.common import offload

MIN_CHARS = 10
MAX_CHARS = 200
PARALLELISM = 4  # RFC 9106's lanes; the memory is the setting's, whatever the lanes
MAX_WAITING = 16  # hashes waiting or running in one process; more are refused, not queued
_DUMMY_PASSWORD = "not the password of any account"

_waiting = threading.BoundedSemaphore(MAX_WAITING)


@lru_cache(maxsize=4)
def _hasher(time_cost: int, memory_kib: int) -> PasswordHasher:
    return PasswordHasher(
        time_cost=time_cost,
        memory_cost=memory_kib,
        parallelism=PARALLELISM,
        hash_len=32,
        salt_len=16,
        type=Type.ID,
    )


def hasher() -> PasswordHasher:
    """The hasher of the configured cost."""
    configured = settings.current()
    return _hasher(configured.password_time_cost, configured.password_memory_kib)


@lru_cache(maxsize=4)
def _dummy_hash(time_cost: int, memory_kib: int) -> str:
    return _hasher(time_cost, memory_kib).hash(_DUMMY_PASSWORD)


def check_rules(password: str, name: str) -> None:
    """WeakPassword unless 10 to 200 characters and not the account's name (any case)."""
    if len(password) < MIN_CHARS:
        raise WeakPassword(f"a password has at least {MIN_CHARS} characters")
    if len(password) > MAX_CHARS:
        raise WeakPassword(f"a password has at most {MAX_CHARS} characters")
    if password.strip().casefold() == name.casefold():
        raise WeakPassword("a password may not be the account's name")


def _offloaded(fn, *args):
    if not _waiting.acquire(blocking=False):
        raise PasswordsBusy("too many sign-ins at once; try again in a second")
    try:
        return offload.run(fn, *args)
    finally:
        _waiting.release()


def hash_password(password: str) -> str:
    """The argon2id hash (PHC string: its salt and cost inside) of a password."""
    return _offloaded(hasher().hash, password)


def _verify(stored: str | None, password: str) -> bool:
    configured = settings.current()
    cost = (configured.password_time_cost, configured.password_memory_kib)
    try:
        if stored is None:
            _hasher(*cost).verify(_dummy_hash(*cost), password)
            return False
        return _hasher(*cost).verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def verify(stored: str | None, password: str) -> bool:
    """Whether `password` matches the stored hash; with None (no such account, or no
    password set) a dummy hash of the same cost is verified and False returned."""
    return _offloaded(_verify, stored, password)


def needs_rehash(stored: str) -> bool:
    """Whether a hash was made with another cost than the configured one."""
    return hasher().check_needs_rehash(stored)
