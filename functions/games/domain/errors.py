"""The refusals of the games domain: plain exceptions (``common.errors.DomainError``), no HTTP. The edge
answers each with the status ``common.web.errors.ERRORS`` gives its ``code``; ``games.handler`` adds what a
refusal carries besides (a conflict's ``game``, a refused move's ``legal_moves``).

Some carry more than a message: a refusal about the game's state carries the current ``game`` (a head) so
the client can catch up without another request, and a refused move carries the ``legal_moves`` and the
rules layer's ``reason`` when it gives one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.errors import DomainError

if TYPE_CHECKING:
    from games.domain import GameHead


class GameError(DomainError, code="game_error"):
    """A refusal of the games domain; ``code`` is stable for clients, ``reason`` an optional finer code."""


class GameNotFound(GameError, code="game_not_found"): ...


class Forbidden(GameError, code="forbidden"):
    """Not the caller's seat, not the caller's turn, a wrong invite."""


class Conflict(GameError, code="conflict"):
    """The game is not in a state that allows this; ``game`` is the game as it stands."""

    def __init__(self, message: str, *, game: GameHead, code: str | None = None, reason: str | None = None) -> None:
        super().__init__(message, code=code, reason=reason)
        self.game = game


class IllegalMove(GameError, code="illegal_move"):
    """A move the rules refuse: 422 whatever its code (``game_over`` included)."""

    refused_move = True

    def __init__(self, message: str, *, legal_moves: list[str], code: str | None = None, reason: str | None = None):
        super().__init__(message, code=code, reason=reason)
        self.legal_moves = legal_moves


class InvalidCursor(GameError, code="invalid_cursor"): ...


class InvalidGameOption(GameError, code="invalid_option"): ...


class RatedNotAllowed(GameError, code="rated_not_allowed"):
    """A rated game asked against the computer or from a custom position: only two players from the usual
    start play for their ratings."""
