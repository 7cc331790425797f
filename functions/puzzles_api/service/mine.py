""" "Your mistakes": the personal puzzles a game review made from a player's own mistakes (``review.service``,
stored per player by ``common.reviews.repository``). They are the player's alone: served only with the player's token,
checked as the sets' puzzles are (``puzzles_api.domain.check``), and never rated: solving one changes no rating, no
count and no streak. A personal puzzle's id is ``<game>-mine-<10 hex digits>``.

``next`` serves the player's personal puzzles of a game in the order of the games and their plies, skipping the
ones whose first attempt has ended; ``game_id`` keeps one game's.
"""

from __future__ import annotations

import re

from common.persistence.attributes import Record
from common.reviews.repository import MistakePuzzle, PersonalPuzzle, ReviewRepository, mistake_record

from puzzles.catalog import Puzzle
from puzzles_api.domain import Caller, NoPuzzleLeft, PuzzleNotFound
from puzzles_api.domain.check import judge
from puzzles_api.service import puzzle_view

PERSONAL_ID = re.compile(r"(chess|english|tanzanian)-mine-[0-9a-f]{10}")


def is_personal(puzzle_id: str) -> bool:
    return bool(PERSONAL_ID.fullmatch(puzzle_id or ""))


class PersonalPuzzles:
    def __init__(self, reviews: ReviewRepository):
        self.reviews = reviews

    def next(self, caller: Caller, game: str, game_id: str | None = None) -> Record:
        """The player's first personal puzzle of ``game`` (of the game ``game_id`` only, if given) not yet played."""
        player, _progress = caller
        for found in self.reviews.puzzles_of(player.player_id):
            mistake = found.puzzle
            if mistake.game == game and not found.finished and game_id in (None, found.game_id):
                view = puzzle_view(_as_set_puzzle(mistake))
                return {
                    **view,
                    "from_game": found.game_id,
                    "ply": mistake.ply,
                    "kind": mistake.kind,
                    "played": mistake.played,
                }
        raise NoPuzzleLeft(f"no {game} puzzle from your own mistakes is waiting: a game review makes them")

    def attempt(self, caller: Caller | None, puzzle_id: str, moves: list[str]) -> Record:
        """Check the moves. The first finished attempt is recorded (so ``next`` moves on); no rating changes."""
        found = self._find(caller, puzzle_id)
        assert caller is not None  # _find refuses a personal puzzle without its player
        puzzle = _as_set_puzzle(found.puzzle)
        verdict = judge(puzzle, moves)
        answer: Record = {"result": verdict.result, "reply": verdict.reply, "solution": None, "source": None}
        if not verdict.final:
            return answer
        player, progress = caller
        self.reviews.mark_finished(player.player_id, puzzle_id)
        rating = progress.rating.rating
        return {
            **answer,
            "source": puzzle.source,
            "solution": list(puzzle.solution) if verdict.result == "failed" else None,
            "rated": False,
            "rating": round(rating, 2),
            "rating_change": 0.0,
        }

    def _find(self, caller: Caller | None, puzzle_id: str) -> PersonalPuzzle:
        if caller is not None:
            player, _progress = caller
            for found in self.reviews.puzzles_of(player.player_id):
                if found.id == puzzle_id:
                    return found
        raise PuzzleNotFound(f"there is no puzzle {puzzle_id!r} among your own")


def _as_set_puzzle(mistake: MistakePuzzle) -> Puzzle:
    """The mistake's puzzle as the sets' puzzles are checked and shown (its record is in the sets' shape)."""
    return Puzzle.from_json(mistake_record(mistake))
