"""Running one asked-for review, off the request path: the review function (SQS) and the local runner's feed
call ``Reviewer.run`` with a game id.

It reads the game from the games store, reviews it (``service.review_game``), stores the result over the
pending item (a conditional write: a message delivered twice stores one review and tells the players once),
keeps each player's personal puzzles, and tells both players the review is ready (``on_ready``). The body
stored, and answered by ``GET /v1/games/{id}/review``, is ``review_body``'s: every move with the position
after it (``fen``), so the page shows any position without the rules.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from games.domain import Created, GameHead, Moved, rules_options
from games.repository import GameRepository

from shared_rules import Position, get_game

from .domain import GameReview
from .engines import Analyser
from .repository import PersonalPuzzle, ReviewRepository
from .service import review_game

#: Told each human player's id and the finished game's head once its review is stored.
ReadyNotice = Callable[[str, GameHead], None]


def game_moves(events: list[Any]) -> tuple[str | None, list[str]]:
    """The start FEN (None: the rules' own start) and the moves of a game's log."""
    start = next((event.start_fen for event in events if isinstance(event, Created)), None)
    return start, [event.move for event in events if isinstance(event, Moved)]


def best_squares(position: Position[Any], best: str | None) -> list[str] | None:
    """The squares the best move goes from and to, as the boards name them (``e2``, ``e4``; ``9``, ``13``)."""
    if not best:
        return None
    if position.game.name == "chess":
        uci = _chess_uci(position, best)
        return [uci[:2], uci[2:4]]
    parts = best.replace("x", "-").split("-")
    return [parts[0], parts[-1]] if len(parts) > 1 else None


def _chess_uci(position: Position[Any], best: str) -> str:
    board = position.board  # type: ignore[attr-defined]  # a ChessPosition: python-chess's board
    return str(board.parse_san(best).uci())


def review_body(review: GameReview, positions: list[Position[Any]]) -> dict[str, Any]:
    """What the review route answers once done: the start, every move with its position after, accuracy."""
    moves = []
    for move, before, after in zip(review.moves, positions[:-1], positions[1:], strict=True):
        entry = {**move.as_dict(), "fen": after.fen(), "colour": move.colour}
        squares = best_squares(before, move.best) if move.mark else None
        if squares:
            entry["best_squares"] = squares
        moves.append(entry)
    return {
        "start": {"fen": positions[0].fen(), "eval": review.start.as_dict()},
        "moves": moves,
        "accuracy": {"white": review.accuracy.white, "black": review.accuracy.black},
        "puzzles": {colour: sum(p["owner"] == colour for p in review.puzzles) for colour in ("white", "black")},
    }


class Reviewer:
    """One review, from the game's id to the stored result, the personal puzzles and the notices."""

    def __init__(
        self,
        games: GameRepository,
        reviews: ReviewRepository,
        on_ready: ReadyNotice | None = None,
        analyser: Analyser | None = None,
        clock: Callable[[], float] = time.time,
    ):
        self.games = games
        self.reviews = reviews
        self.on_ready = on_ready
        self.analyser = analyser
        self.clock = clock

    def run(self, game_id: str) -> bool:
        """Review the game if its review is pending; True if this call stored it."""
        stored = self.reviews.get(game_id)
        if stored is None or stored.status != "pending":
            return False  # never asked for, or done by an earlier delivery of the same message
        head, events = self.games.load(game_id)
        if head is None:
            return False
        start_fen, moves = game_moves(events)
        options = rules_options(head.options)
        review = review_game(
            head.game, options, start_fen, moves, source=f"ubao game {game_id}", analyser=self.analyser
        )
        if not self.reviews.finish(game_id, review_body(review, _positions(head.game, options, start_fen, moves))):
            return False
        self.reviews.add_puzzles(_personal_puzzles(head, review))
        for player_id in _players(head):
            if self.on_ready is not None:
                self.on_ready(player_id, head)
        return True


def _positions(name: str, options: dict[str, Any], fen: str | None, moves: list[str]) -> list[Position[Any]]:
    game = get_game(name, options)
    positions = [game.from_fen(fen) if fen else game.start()]
    for text in moves:
        positions.append(positions[-1].play(positions[-1].parse_move(text)))
    return positions


def _players(head: GameHead) -> list[str]:
    seats = (head.seat("white"), head.seat("black"))
    return [seat.player_id for seat in seats if seat is not None and seat.player_id is not None]


def _personal_puzzles(head: GameHead, review: GameReview) -> list[PersonalPuzzle]:
    """Each puzzle belongs to the player who made the mistake (none for the computer's mistakes)."""
    found = []
    for puzzle in review.puzzles:
        seat = head.seat(puzzle["owner"])
        if seat is not None and seat.player_id is not None:
            found.append(PersonalPuzzle(seat.player_id, head.id, dict(puzzle)))
    return found
