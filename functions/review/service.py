"""Reviewing a finished game: every position evaluated, every move marked, each player's accuracy, and the
personal puzzles made from the mistakes.

    >>> review = review_game("english", {}, None, moves)          # doctest: +SKIP
    >>> [(m.ply, m.move, m.mark) for m in review.moves if m.mark]  # doctest: +SKIP

The routes (asking for a review, reading it) and the queue that runs this off the request path are thin glue
around ``review_game``: it needs only the game as the store keeps it (name, options, start FEN, moves).

**Personal puzzles.** Around every move marked a mistake or a blunder two positions are judged as the puzzle
sets judge theirs (one move clearly best, and a clear advantage after it: ``Analyser.puzzle``; draughts: the
sets' own generator and judge):

* ``missed``: the position before the mistake, the player to move: the win they did not see;
* ``punish``: the position the mistake left, the opponent to move: the punishment it allowed.

Each that passes becomes a puzzle record in the sets' shape (``puzzles/README.md``) that belongs to the
player who made the mistake (``owner``), for "Your mistakes".

**Running one asked-for review** (``Reviewer``), off the request path: the review function (SQS) and the local
runner's feed call ``Reviewer.run`` with a game id.

It reads the game from the games store, reviews it (``service.review_game``), stores the result over the
pending item (a conditional write: a message delivered twice stores one review and tells the players once),
keeps each player's personal puzzles, and tells both players the review is ready (``on_ready``). The body
stored, and answered by ``GET /v1/games/{id}/review``, is ``review_body``'s: every move with the position
after it (``fen``), so the page shows any position without the rules.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from common.reviews.domain import ReviewedMove, ReviewEval, ReviewResult
from common.reviews.repository import PersonalPuzzle, ReviewRepository, mistake_of
from games.domain import Created, GameHead, Moved, rules_options
from games.repository import GameRepository

from shared_rules import Position, get_game
from shared_rules.names import Colour

from .domain import SCALES, Evaluation, GameReview, Mark, MoveReview, accuracy, move_loss
from .engines import Analyser, Analysis, analyser_for

#: The marks around which positions are judged for personal puzzles.
PUZZLE_MARKS = (Mark.MISTAKE, Mark.BLUNDER)
LICENCE = "GPL-3.0-or-later"


#: The moves of a game the review reads (fair play, docs/games.md): a 1,000-ply game took 70 s of the review
#: function; the first 200 plies (100 moves a side) are the opening and middlegame where a player's mistakes are,
#: and cost about a seventh of that. The review's moves stop there; the game's own record stays whole.
REVIEWED_PLIES = 200


def review_game(
    game_name: str,
    options: Mapping[str, Any] | None,
    fen: str | None,
    moves: Sequence[str],
    *,
    source: str = "",
    analyser: Analyser | None = None,
) -> GameReview:
    """The review of a finished game played from ``fen`` (None: the start) with ``moves`` in notation.

    A game ends by resignation, time or agreement as well as on the board, so whether it is finished is the
    caller's question (the games' head knows). Raises the rules' errors for an unknown game, bad options, a bad
    FEN or an illegal move (``InvalidMove`` with the move's index). ``source`` names the game in the puzzles'
    ``source``. ``analyser`` replaces the game's engine (the caller then closes it).
    """
    game = get_game(game_name, dict(options or {}))
    game.replay(moves, fen)  # the rules' refusal of a bad FEN or move (``InvalidMove`` with its index)
    positions = [game.from_fen(fen) if fen else game.start()]
    played = []
    for text in moves:
        move = positions[-1].parse_move(text)
        played.append(positions[-1].notation(move))
        positions.append(positions[-1].play(move))
    engine = analyser or analyser_for(positions[0])
    try:  # a long game is reviewed in part: its first REVIEWED_PLIES moves, where nearly every mistake is made
        return _review(game.name, positions[: REVIEWED_PLIES + 1], played[:REVIEWED_PLIES], engine, source)
    finally:
        if analyser is None:
            engine.close()


def _review(
    game: str, positions: list[Position[Any]], notations: list[str], engine: Analyser, source: str
) -> GameReview:
    scale = SCALES[game]
    analyses = [_final(position) or engine.analyse(position) for position in positions]
    chances = [analysis.evaluation.chances(scale) for analysis in analyses]
    reviews = []
    puzzles = []
    judged: dict[int, dict[str, Any] | None] = {}  # by the ply of the position: each is judged once
    for ply in range(1, len(positions)):
        before, after = positions[ply - 1], positions[ply]
        mover: Colour = "white" if before.turn == "white" else "black"
        played = notations[ply - 1]
        best = analyses[ply - 1].best or played
        loss = move_loss(mover, chances[ply - 1], chances[ply])
        mark = None if played == best else scale.mark(loss)
        reviews.append(MoveReview(ply, played, analyses[ply].evaluation, best, mark, mover, round(loss, 3)))
        if mark in PUZZLE_MARKS:
            for kind, position in (("missed", before), ("punish", after)):
                at = ply - 1 if kind == "missed" else ply
                if at not in judged:
                    judged[at] = _puzzle(engine, position)
                puzzle = judged[at]
                if puzzle is not None:
                    puzzles.append(_personal(puzzle, game, mover, ply, mark, kind, source) | {"played": played})
    first: Colour = "white" if positions[0].turn == "white" else "black"
    return GameReview(game, analyses[0].evaluation, tuple(reviews), accuracy(chances, first), tuple(puzzles))


def _puzzle(engine: Analyser, position: Position[Any]) -> dict[str, Any] | None:
    return None if position.status().is_over else engine.puzzle(position)


def _final(position: Position[Any]) -> Analysis | None:
    """A finished game needs no engine: its result is its evaluation."""
    status = position.status()
    if not status.is_over:
        return None
    if status.result == "draw":
        return Analysis(Evaluation.of_score(0), None)
    return Analysis(Evaluation.win("white" if status.result == "white" else "black", 0), None)


def _personal(
    puzzle: dict[str, Any], game: str, owner: Colour, ply: int, mark: Mark, kind: str, source: str
) -> dict[str, Any]:
    """A puzzle record in the sets' shape, with whose mistake it comes from, where, and which ``kind``."""
    digest = hashlib.sha1(f"{game}|{puzzle['fen']}|{' '.join(puzzle['solution'])}".encode()).hexdigest()[:10]
    record = {
        **puzzle,
        "id": f"{game}-mine-{digest}",
        "game": game,
        "source": f"{source} ply {ply}".strip() if source else f"ubao game review, ply {ply}",
        "licence": LICENCE,
        "owner": owner,
        "ply": ply,
        "mark": mark.value,
        "kind": kind,  # "missed": the owner's move before the mistake; "punish": the opponent's after it
    }
    record.pop("difficulty", None)
    return record


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


def review_body(review: GameReview, positions: list[Position[Any]]) -> ReviewResult:
    """What is kept, and what the review route answers once done: the start, every move with its position
    after, accuracy."""
    moves = []
    for move, before, after in zip(review.moves, positions[:-1], positions[1:], strict=True):
        squares = best_squares(before, move.best) if move.mark else None
        mark = move.mark.value if move.mark is not None else None
        stored = ReviewedMove(move.ply, move.move, move.colour, after.fen(), _eval(move.eval), move.best, mark)
        moves.append(replace(stored, best_squares=tuple(squares)) if squares else stored)
    return ReviewResult(
        start_fen=positions[0].fen(),
        start_eval=_eval(review.start),
        moves=tuple(moves),
        accuracy_white=review.accuracy.white,
        accuracy_black=review.accuracy.black,
        puzzles={colour: sum(p["owner"] == colour for p in review.puzzles) for colour in ("white", "black")},
    )


def _eval(value: Evaluation) -> ReviewEval:
    return ReviewEval(value.score, value.winner, value.win_in)


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
            found.append(PersonalPuzzle(seat.player_id, head.id, mistake_of(puzzle)))
    return found
