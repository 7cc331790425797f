"""The puzzle sets, read from the JSON Lines files beside this module.

Import-light on purpose (json and pathlib only), so a Lambda can load it on a cold start without
the rules layer or the search:

    >>> from puzzles.catalog import load, find
    >>> puzzles = load("english")
    >>> find(puzzles[0].id) == puzzles[0]
    True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

GAMES = ("chess", "english", "tanzanian")
DIRECTORY = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Puzzle:
    id: str
    game: str
    fen: str  # the solver to move
    solution: tuple[str, ...]  # the solver's and the opponent's moves alternating, the solver's first
    rating: int
    themes: tuple[str, ...]
    source: str
    licence: str
    # Draughts: other moves that solve, one tuple per solver move (only the last step has any; each
    # of them finishes the puzzle as well as the solution's move does). Empty for most puzzles.
    alternatives: tuple[tuple[str, ...], ...] = ()

    @property
    def turn(self) -> str:
        """The solver's colour: ``white`` or ``black``."""
        side = self.fen.split()[1] if self.game == "chess" else self.fen.strip()[:1].lower()
        return "white" if side == "w" else "black"

    @property
    def solver_moves(self) -> tuple[str, ...]:
        return self.solution[::2]

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> Puzzle:
        return cls(
            id=record["id"],
            game=record["game"],
            fen=record["fen"],
            solution=tuple(record["solution"]),
            rating=int(record["rating"]),
            themes=tuple(record["themes"]),
            source=record["source"],
            licence=record["licence"],
            alternatives=tuple(tuple(step) for step in record.get("alternatives", ())),
        )

    def public(self) -> dict[str, Any]:
        """What a player may see before solving: everything but the solution."""
        return {
            "id": self.id,
            "game": self.game,
            "fen": self.fen,
            "turn": self.turn,
            "rating": self.rating,
            "themes": list(self.themes),
        }


def path_of(game: str, directory: Path | None = None) -> Path:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
    return (directory or DIRECTORY) / f"{game}.jsonl"


def load(game: str, directory: Path | None = None) -> tuple[Puzzle, ...]:
    """Every puzzle of ``game``, in file order (read once per process)."""
    return _load(path_of(game, directory))


def find(puzzle_id: str, directory: Path | None = None) -> Puzzle | None:
    """The puzzle with this id (its game is the id's prefix), or None."""
    game = puzzle_id.split("-", 1)[0] if isinstance(puzzle_id, str) else ""
    if game not in GAMES:
        return None
    return _index(path_of(game, directory)).get(puzzle_id)


@lru_cache(maxsize=16)
def _load(path: Path) -> tuple[Puzzle, ...]:
    with path.open(encoding="utf-8") as lines:
        return tuple(Puzzle.from_json(json.loads(line)) for line in lines if line.strip())


@lru_cache(maxsize=16)
def _index(path: Path) -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in _load(path)}
