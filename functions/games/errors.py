"""The refusals of the games routes. Each is an ``ApiError``: the client gets its status and JSON body.

Some carry more than ``{"error": ...}``: a 409 carries the current ``game`` so the client can catch up
without another request, and a refused move carries the ``legal_moves``.
"""

from __future__ import annotations

from http import HTTPStatus

from common.errors import ApiError


class GameError(ApiError):
    """An ``ApiError`` whose body has fields besides ``error`` (``extra``)."""

    def __init__(self, message: str, *, extra: dict | None = None, **kwargs):
        super().__init__(message, **kwargs)
        self.extra = dict(extra or {})


class GameNotFound(GameError):
    status = HTTPStatus.NOT_FOUND
    code = "game_not_found"


class Forbidden(GameError):
    status = HTTPStatus.FORBIDDEN
    code = "forbidden"


class Conflict(GameError):
    """The game is not in a state that allows this; the body has the current ``game``."""

    status = HTTPStatus.CONFLICT
    code = "conflict"


class IllegalMove(GameError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "illegal_move"


class InvalidCursor(GameError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "invalid_cursor"


class InvalidGameOption(GameError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "invalid_option"


class NotModified(Exception):
    """The client's copy (its ``If-None-Match``) is current: 304 with no body."""

    def __init__(self, etag: str):
        super().__init__(etag)
        self.etag = etag
