"""Perft: the number of leaf nodes of the legal-move tree, the standard check of a move generator.

Draughts uses the engine's bulk-counting fast path; chess walks python-chess's board in place.
Draw rules do not stop perft (as in the published counts); a side without moves is a leaf.
"""

from __future__ import annotations

from typing import Any

import chess

from .base import Position
from .chess_game import ChessPosition
from .draughts.game import DraughtsPosition


def perft(position: Position[Any], depth: int) -> int:
    if depth < 0:
        raise ValueError("depth must be 0 or more")
    if isinstance(position, ChessPosition):
        return _chess_perft(position.board.copy(stack=False), depth)
    if isinstance(position, DraughtsPosition):
        game = position.game
        return game.engine.perft(position.state, depth, game.mandatory_capture)
    raise TypeError(f"no perft for {position!r}")


def _chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _chess_perft(board, depth - 1)
        board.pop()
    return total
