"""The refusals of the games domain: plain exceptions, no HTTP. The edge (``games.handler``) maps each to its
status, ``code`` and body, and ``common.web.errors`` says what the codes mean.

Some carry more than a message: a refusal about the game's state carries the current ``game`` (a head) so
the client can catch up without another request, and a refused move carries the ``legal_moves`` and the
rules layer's ``reason`` when it gives one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.domain import GameHead


class GameError(Exception):
    """A refusal; ``code`` is stable for clients, ``reason`` an optional finer code (shown as ``error.reason``)."""

    code = "game_error"

    def __init__(self, message: str, *, code: str | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.reason = reason


class GameNotFound(GameError):
    code = "game_not_found"


class Forbidden(GameError):
    """Not the caller's seat, not the caller's turn, a wrong invite."""

    code = "forbidden"


class Conflict(GameError):
    """The game is not in a state that allows this; ``game`` is the game as it stands."""

    code = "conflict"

    def __init__(self, message: str, *, game: GameHead, code: str | None = None, reason: str | None = None) -> None:
        super().__init__(message, code=code, reason=reason)
        self.game = game


class IllegalMove(GameError):
    code = "illegal_move"

    def __init__(self, message: str, *, legal_moves: list[str], code: str | None = None, reason: str | None = None):
        super().__init__(message, code=code, reason=reason)
        self.legal_moves = legal_moves


class InvalidCursor(GameError):
    code = "invalid_cursor"


class InvalidGameOption(GameError):
    code = "invalid_option"


class NotModified(Exception):
    """The client's copy (its ``If-None-Match``) is current: 304 with no body."""

    def __init__(self, etag: str):
        super().__init__(etag)
        self.etag = etag
