"""The one interface every game offers: ``Game`` (rules plus table options) and ``Position`` (a value).

A ``Position`` never changes: ``play`` returns a new one, so positions are safe to share and cache.
It remembers what the draw rules need (the repetition history and counters) since the position it
was set up from, so ``game.replay(moves, fen)`` reproduces a game's state exactly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

from .errors import GameOver, InvalidMove
from .options import OptionSpec, validate_options
from .status import Status, other

MoveT = TypeVar("MoveT")


@dataclass(frozen=True)
class Snapshot:
    """A position and what its draw rules remember, in a form to store (``Position.snapshot``).

    ``memory`` holds the repetition keys of the positions since the last irreversible move and the draw
    counters the FEN does not carry; its layout is the game's own. ``game.restore(snapshot)`` gives back a
    position with the same status and legal moves as the one it was taken from, without replaying moves,
    so storing a snapshot bounds the cost of resuming a game of any length.
    """

    fen: str
    ply: int
    memory: bytes = b""


class Position(ABC, Generic[MoveT]):
    """A position of one game, with the history its draw rules need."""

    game: Game

    @property
    @abstractmethod
    def turn(self) -> str:
        """``white`` or ``black``: the side to move."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """Half-moves played since the position this one was set up from."""

    @abstractmethod
    def fen(self) -> str:
        """The position in the game's FEN (chess FEN, or PDN FEN for draughts)."""

    @abstractmethod
    def legal_moves(self) -> list[MoveT]:
        """The legal moves, in a stable order; empty once the game is over."""

    @abstractmethod
    def notation(self, move: MoveT) -> str:
        """The canonical notation of a legal move (SAN for chess, PDN for draughts)."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """The legal move ``text`` names; raises ``InvalidMove`` (or ``AmbiguousMove``) otherwise."""

    @abstractmethod
    def _after(self, move: MoveT) -> Self:
        """The position after a legal move (no checks)."""

    @abstractmethod
    def status(self) -> Status:
        """Whether the game is over here, who won, and why."""

    @abstractmethod
    def snapshot(self) -> Snapshot:
        """This position with its draw rules' memory, to store and ``Game.restore`` later."""

    @abstractmethod
    def is_irreversible(self, move: MoveT) -> bool:
        """Whether no position before ``move`` can occur again after it (the draw rules forget them)."""

    def play(self, move: MoveT | str) -> Self:
        """The position after ``move`` (a move object or its notation), which must be legal."""
        if self.status().is_over:
            raise GameOver("the game is already over")
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move not in self.legal_moves():
            raise InvalidMove("that move is not legal here", reason="blocked")
        return self._after(move)

    def legal_notations(self) -> list[str]:
        return [self.notation(move) for move in self.legal_moves()]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name} {self.fen()!r}>"


class Game(ABC):
    """A game's rules under a set of table options. Build with ``shared_rules.get_game``.

    Its positions are ``Position[Any]``: each game has its own move type, which callers hold without looking
    inside (they pass moves back to the position that produced them, or use notation).
    """

    name: str
    title: str
    option_specs: tuple[OptionSpec, ...] = ()

    def __init__(self, options: Mapping[str, Any] | None = None):
        self.options = validate_options(self.name, self.option_specs, options)

    @abstractmethod
    def start(self) -> Position[Any]:
        """The starting position."""

    @abstractmethod
    def from_fen(self, fen: str) -> Position[Any]:
        """A position set up from FEN; raises ``InvalidFen`` with what is wrong."""

    @abstractmethod
    def restore(self, snapshot: Snapshot) -> Position[Any]:
        """The position a ``Position.snapshot`` describes; ``InvalidFen`` if the snapshot is damaged."""

    def replay(self, moves: Iterable[str] = (), fen: str | None = None) -> Position[Any]:
        """The position after playing ``moves`` (notation) from ``fen`` (default: the start).

        An illegal move raises ``InvalidMove`` whose ``index`` is the 0-based place in ``moves``.
        """
        position = self.from_fen(fen) if fen else self.start()
        for index, text in enumerate(moves):
            try:
                position = position.play(text)
            except InvalidMove as error:
                raise type(error)(f"move {index + 1} ({text!r}): {error}", index=index, reason=error.reason) from None
        return position

    def time_loss_result(self, position: Position[Any], loser: str) -> str:
        """The result when ``loser`` runs out of time in ``position``: the other side wins by default."""
        return other(loser)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.options}>"
