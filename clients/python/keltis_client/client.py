"""`Client`: one account's calls to the service (accounts, games, moves, challenges, seeks).

Every call answers the service's JSON as typed dicts (keltis_client.types) or raises
`ApiError` with the service's error `code` (keltis_client.errors).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import requests

from keltis_client import credentials as saved
from keltis_client.errors import AccountTaken, ApiError, KeltisError
from keltis_client.types import (
    Account,
    Challenge,
    Event,
    Game,
    LegalMoves,
    Move,
    MoveResult,
    Seek,
    View,
)

log = logging.getLogger("keltis_client")
TIMEOUT_S = 10.0


class Client:
    """Calls of one account (`key`, an account key `kk_...`) to the service at `server`."""

    def __init__(
        self,
        server: str,
        key: str | None = None,
        session: requests.Session | None = None,
        timeout: float = TIMEOUT_S,
    ):
        self.server = server.rstrip("/")
        self.key = key
        self.http = session or requests.Session()
        self.timeout = timeout
        self.credentials: saved.Credentials | None = None
        self.credentials_path: Path | None = None

    # ----- accounts -------------------------------------------------------------------------

    @classmethod
    def connect(
        cls,
        server: str,
        name: str,
        key: str | None = None,
        credentials_path: str | os.PathLike[str] | None = None,
        webhook: str | None = None,
        bot: bool = True,
        session: requests.Session | None = None,
    ) -> Client:
        """The account `name`: with `key` (or `$KELTIS_KEY`) given, that key; else the key
        saved in `credentials_path` (default `~/.config/keltis/<host>-<port>-<name>.json`);
        else a new sign-up, saved there (0600). `webhook` is set on the account (a new
        webhook secret is fetched when the saved one is unknown). A taken name with no key
        raises `AccountTaken`, saying what to do."""
        path = Path(credentials_path) if credentials_path else saved.default_path(server, name)
        client = cls(server, session=session)
        client.credentials_path = path
        stored = saved.load(path)
        key = key or os.environ.get("KELTIS_KEY") or None
        if key is None and stored is not None:
            key = stored.key
        if key is None:
            try:
                client.sign_up(name, bot=bot, webhook=webhook)
            except ApiError as error:
                if error.code != "name_taken":
                    raise
                raise AccountTaken(
                    f"the account name {name!r} is taken on {client.server} and no key for it "
                    f"is saved in {path}: pass its key (--key or KELTIS_KEY), or pick another "
                    "name"
                ) from error
            return client
        client.key = key
        try:
            me = client.me()
        except ApiError as error:
            if error.status == 401:
                raise KeltisError(
                    f"the key for {name!r} (given, or saved in {path}) is refused by "
                    f"{client.server}: it was replaced or never existed; pass the current one "
                    "(--key or KELTIS_KEY)"
                ) from error
            raise
        secret = stored.webhook_secret if stored is not None and stored.key == key else None
        client._remember(me["name"], key, secret)
        if webhook is not None and me.get("webhook") != webhook:
            client.set_webhook(webhook)
        if webhook is not None and secret is None:
            client.replace_key()  # the only way to learn a webhook secret again
        return client

    def sign_up(self, name: str, bot: bool = True, webhook: str | None = None) -> Account:
        """A new account; this client then uses its key, saved if `credentials_path` is set."""
        body: dict[str, Any] = {"name": name, "bot": bot}
        if webhook is not None:
            body["webhook"] = webhook
        account = cast(Account, self._call("POST", "/v1/accounts", body, auth=False))
        self.key = account["key"]
        self._remember(account["name"], account["key"], account.get("webhook_secret"))
        return account

    def replace_key(self) -> Account:
        """`POST /v1/me/key`: a new key and webhook secret (the old key stops at once)."""
        account = cast(Account, self._call("POST", "/v1/me/key"))
        self.key = account["key"]
        self._remember(account["name"], account["key"], account.get("webhook_secret"))
        return account

    def me(self) -> dict[str, Any]:
        return cast(dict, self._call("GET", "/v1/me"))

    def set_webhook(self, webhook: str | None) -> dict[str, Any]:
        return cast(dict, self._call("PATCH", "/v1/me", {"webhook": webhook}))

    @property
    def name(self) -> str | None:
        return self.credentials.name if self.credentials else None

    @property
    def webhook_secret(self) -> str | None:
        return self.credentials.webhook_secret if self.credentials else None

    def _remember(self, name: str, key: str, secret: str | None) -> None:
        self.credentials = saved.Credentials(self.server, name, key, secret)
        if self.credentials_path is not None:
            saved.save(self.credentials, self.credentials_path)
            log.info("credentials of %s saved in %s", name, self.credentials_path)

    # ----- games ----------------------------------------------------------------------------

    def create_game(self, game: str, players: list[dict[str, Any]], **options: Any) -> dict:
        """`POST /v1/games` with this account's key (seat yourself with `{"account": name}`)."""
        return cast(
            dict, self._call("POST", "/v1/games", {"game": game, "players": players, **options})
        )

    def games(self, status: str | None = "active") -> list[dict[str, Any]]:
        """The account's games (`GET /v1/me/games`), every page."""
        found: list[dict[str, Any]] = []
        cursor = None
        while True:
            params = {"status": status, "cursor": cursor}
            page = self._call("GET", "/v1/me/games", params={k: v for k, v in params.items() if v})
            found.extend(page["games"])
            cursor = page.get("next_cursor")
            if not cursor:
                return found

    def game(self, game_id: str, seat: int | None = None) -> Game:
        """`GET /v1/games/{id}`: the game as the account's seat sees it."""
        return cast(Game, self._call("GET", f"/v1/games/{game_id}", headers=_seat(seat)))

    def view(self, game_id: str, seat: int | None = None) -> View:
        """The seat's view alone (`GET /v1/games/{id}`'s `view`)."""
        return self.game(game_id, seat)["view"]

    def legal_moves(
        self, game_id: str, seat: int | None = None, version: int | None = None
    ) -> LegalMoves:
        """`GET /v1/games/{id}/moves`: the seat's legal moves and the version they are for;
        with `version`, the moves at that version (ApiError 409 when the game is elsewhere)."""
        query = "" if version is None else f"?version={int(version)}"
        path = f"/v1/games/{game_id}/moves{query}"
        return cast(LegalMoves, self._call("GET", path, headers=_seat(seat)))

    def move(
        self,
        game_id: str,
        move: Move | dict[str, Any],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        seat: int | None = None,
    ) -> MoveResult:
        """`POST /v1/games/{id}/moves`. With `expected_version` a stale move is refused (409
        `version_conflict`); the `Idempotency-Key` (default `<game>.<version>.<seat>` when a
        version is given) makes a repeat return the first answer and append nothing."""
        body = {**move}
        if expected_version is not None:
            body["expected_version"] = expected_version
            if idempotency_key is None:
                idempotency_key = f"{game_id}.{expected_version}.{'' if seat is None else seat}"
        headers = _seat(seat)
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        return cast(
            MoveResult, self._call("POST", f"/v1/games/{game_id}/moves", body, headers=headers)
        )

    def events(self, read_timeout: float = 35.0) -> EventStream:
        """`GET /v1/me/events`, open: iterate it for lines (`None` for a keep-alive)."""
        response = self.http.get(
            self.server + "/v1/me/events",
            headers=self._auth(),
            stream=True,
            timeout=(self.timeout, read_timeout),
        )
        if response.status_code != 200:
            error = _error(response)
            response.close()
            raise error
        return EventStream(response)

    # ----- challenges and seeks -------------------------------------------------------------

    def challenge(self, opponents: list[dict[str, str]], game: str, **options: Any) -> Challenge:
        """`POST /v1/challenges`: opponents `[{"account": name} | {"bot": name}]`; options
        `options`, `clock`, `rated`, `seat_order`, `match`, `expires_in_s`."""
        body = {"opponents": opponents, "game": game, **options}
        return cast(Challenge, self._call("POST", "/v1/challenges", body))

    def challenges(self, direction: str = "incoming") -> list[Challenge]:
        answer = self._call("GET", "/v1/challenges", params={"direction": direction})
        return cast(list, answer["challenges"] if isinstance(answer, dict) else answer)

    def get_challenge(self, challenge_id: str) -> Challenge:
        return cast(Challenge, self._call("GET", f"/v1/challenges/{challenge_id}"))

    def accept_challenge(self, challenge_id: str) -> Challenge:
        return cast(Challenge, self._call("POST", f"/v1/challenges/{challenge_id}/accept"))

    def decline_challenge(self, challenge_id: str, reason: str = "generic") -> Challenge:
        path = f"/v1/challenges/{challenge_id}/decline"
        return cast(Challenge, self._call("POST", path, {"reason": reason}))

    def cancel_challenge(self, challenge_id: str) -> Challenge:
        return cast(Challenge, self._call("POST", f"/v1/challenges/{challenge_id}/cancel"))

    def create_seek(
        self,
        game: str,
        players: int = 2,
        clock: dict[str, Any] | None = None,
        rated: bool = True,
        max_games: int = 1,
        options: dict[str, Any] | None = None,
    ) -> Seek:
        """`POST /v1/seeks`: pair me with others who want the same (open while my stream is)."""
        body: dict[str, Any] = {"game": game, "players": players, "rated": rated}
        body["max_games"] = max_games
        if clock is not None:
            body["clock"] = clock
        if options is not None:
            body["options"] = options
        return cast(Seek, self._call("POST", "/v1/seeks", body))

    def seeks(self) -> list[Seek]:
        answer = self._call("GET", "/v1/seeks")
        return cast(list, answer["seeks"] if isinstance(answer, dict) else answer)

    def delete_seek(self, seek_id: str) -> None:
        self._call("DELETE", f"/v1/seeks/{seek_id}")

    # ----- plumbing -------------------------------------------------------------------------

    def _auth(self) -> dict[str, str]:
        if not self.key:
            raise KeltisError("this client has no account key: sign up or pass one")
        return {"Authorization": f"Bearer {self.key}"}

    def _call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        auth: bool = True,
    ) -> Any:
        sent = {**(self._auth() if auth else {}), **(headers or {})}
        response = self.http.request(
            method,
            self.server + path,
            json=body,
            params=params,
            headers=sent,
            timeout=self.timeout,
        )
        if response.status_code >= 400:
            raise _error(response)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()


class EventStream:
    """An open `GET /v1/me/events`: iterate for `Event`s (`None` for each keep-alive);
    `close()` (from any thread) ends it."""

    def __init__(self, response: requests.Response):
        self.response = response

    def __iter__(self) -> Iterator[Event | None]:
        for raw in self.response.iter_lines():
            if not raw:
                yield None
                continue
            yield cast(Event, json.loads(raw))

    def close(self) -> None:
        """Shut the connection down first: closing alone does not wake a thread blocked
        reading it."""
        sock = _socket_of(self.response)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.response.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _socket_of(response: requests.Response) -> socket.socket | None:
    """The socket under a streamed response (urllib3's connection, else http.client's)."""
    raw = response.raw
    connection = getattr(raw, "_connection", None) or getattr(raw, "connection", None)
    sock = getattr(connection, "sock", None)
    if sock is None:
        buffered = getattr(getattr(raw, "_fp", None), "fp", None)
        sock = getattr(getattr(buffered, "raw", None), "_sock", None)
    return sock if isinstance(sock, socket.socket) else None


def _seat(seat: int | None) -> dict[str, str]:
    return {} if seat is None else {"X-Keltis-Seat": str(seat)}


def _error(response: requests.Response) -> ApiError:
    try:
        error = response.json()["error"]
        code, message = str(error["code"]), str(error["message"])
    except (ValueError, KeyError, TypeError):
        error, code, message = {}, "http_error", response.text[:200] or response.reason
    failure = ApiError(response.status_code, code, message, error)
    retry = response.headers.get("Retry-After")
    if retry is not None:
        with contextlib.suppress(ValueError):
            failure.retry_after = float(retry)
    return failure
