"""Checking one move: the rules layer does the work; this module turns its answer into the response."""

from __future__ import annotations

from typing import Any

from common.web.models import ErrorDetail

from shared_rules import GameOver, InvalidMove, get_game
from validate_move.models import IllegalMove, LegalMove, PositionStatus, ValidateRequest


def validate_move(request: ValidateRequest) -> LegalMove | IllegalMove:
    """The answer for ``request.move`` after ``request.moves`` from ``request.fen``.

    A refused move is an answer (``IllegalMove``). A refused game, option, FEN or history raises the
    rules layer's ``RulesError``: the request itself is wrong, and the API turns it into a 422.
    """
    game = get_game(request.game, request.options)
    position = game.replay(request.moves, request.fen)
    try:
        if position.status().is_over:
            raise GameOver(f"the game is already over ({position.status().reason})")
        move = position.parse_move(request.move)
    except InvalidMove as refusal:
        return IllegalMove(
            error=ErrorDetail(code=refusal.code, message=str(refusal), reason=refusal.reason),
            legal_moves=position.legal_notations(),
            legal_moves_uci=_uci(request.game, position),
        )
    after = position.play(move)
    status = after.status()
    return LegalMove(
        move=position.notation(move),
        fen=after.fen(),
        status=PositionStatus.model_validate(status.as_dict()),
        legal_moves=after.legal_notations(),
        legal_moves_uci=_uci(request.game, after),
    )


def _uci(game: str, position: Any) -> list[str] | None:
    """Chess moves by their squares, so a board can show them without the rules; None for draughts."""
    return [move.uci() for move in position.legal_moves()] if game == "chess" else None
