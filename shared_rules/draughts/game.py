"""Draughts games and positions: the engine's moves plus notation, history and the draw rules."""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any

from ..base import Game, Position, Snapshot
from ..errors import AmbiguousMove, InvalidFen, InvalidMove
from ..status import BLACK, DRAW, IN_PROGRESS, WHITE, Status
from .engine import WHITE_TO_MOVE, RawMove, State, engine_for
from .notation import Squares, parse_fen, split_move, write_fen
from .variants import Variant

#: A snapshot's memory: the three draw counters (countdown -1 when none), then each earlier state of the
#: repetition history (white, black, kings, turn).
_COUNTERS = struct.Struct(">IIi")
_STATE = struct.Struct(">QQQB")

COUNTDOWN_MOVES = 12  # Tanzanian: moves the three-king side has to take the lone king
KINGS_ONLY_PLIES = 60  # Tanzanian optional rule: 30 moves each with only kings and no capture


class DraughtsGame(Game):
    """One draughts variant under its table options."""

    def __init__(self, variant: Variant, options: Mapping[str, Any] | None = None):
        self.variant = variant
        self.name = variant.name
        self.title = variant.title
        self.option_specs = variant.options
        super().__init__(options)
        self.engine = engine_for(variant)
        self.squares = _squares_for(variant)
        self.mandatory_capture = self.options.get("mandatory_capture", True)
        self.tracks_repetition = variant.repetition == "always" or (
            variant.repetition == "option" and self.options.get("threefold_repetition", False)
        )

    def start(self) -> DraughtsPosition:
        return DraughtsPosition.initial(self, self.engine.start_state())

    def from_fen(self, fen: str) -> DraughtsPosition:
        return DraughtsPosition.initial(self, parse_fen(self.squares, fen))

    def restore(self, snapshot: Snapshot) -> DraughtsPosition:
        """The position of ``snapshot``: its FEN, the draw counters and the states since the last irreversible
        move (for the repetition rule)."""
        memory = snapshot.memory
        if len(memory) < _COUNTERS.size or (len(memory) - _COUNTERS.size) % _STATE.size or snapshot.ply < 0:
            raise InvalidFen("the stored position is damaged")
        quiet, kings_only, countdown = _COUNTERS.unpack_from(memory)
        state = parse_fen(self.squares, snapshot.fen)
        earlier = tuple(State(*fields) for fields in _STATE.iter_unpack(memory[_COUNTERS.size :]))
        history = (*earlier, state) if self.tracks_repetition else (state,)
        return DraughtsPosition(
            self, state, snapshot.ply, history, quiet, kings_only, None if countdown < 0 else countdown
        )

    def time_loss_result(self, position: Position[Any], loser: str) -> str:
        """Tanzanian: a time loss in "3 vs 1 material" is a draw (seed 000). The seed names neither the kind
        of piece nor the side out of time, so men and kings count alike and either side's loss is a draw."""
        if not isinstance(position, DraughtsPosition):
            raise TypeError(f"not a draughts position: {position!r}")
        drawn = self.variant.time_loss_draw
        if drawn is not None:
            white, black, _, _ = position.state
            if sorted((white.bit_count(), black.bit_count())) == sorted(drawn):
                return DRAW
        return super().time_loss_result(position, loser)


_SQUARES: dict[str, Squares] = {}


def _squares_for(variant: Variant) -> Squares:
    if variant.name not in _SQUARES:
        _SQUARES[variant.name] = Squares(engine_for(variant), variant.numbering)
    return _SQUARES[variant.name]


def _countdown_sides(state: State) -> int | None:
    """The side (0 White, 1 Black) with three kings against a lone king, or None."""
    white, black, kings, _ = state
    if white.bit_count() == 3 and black.bit_count() == 1 and not (white | black) & ~kings:
        return WHITE_TO_MOVE
    if black.bit_count() == 3 and white.bit_count() == 1 and not (white | black) & ~kings:
        return 1
    return None


class DraughtsPosition(Position[RawMove]):
    """A draughts position with what its draw rules remember (immutable)."""

    game: DraughtsGame

    def __init__(
        self,
        game: DraughtsGame,
        state: State,
        ply: int,
        history: tuple[State, ...],
        quiet_plies: int,
        kings_only_plies: int,
        countdown: int | None,
    ):
        self.game = game
        self.state = state
        self._ply = ply
        self.history = history  # states since the last irreversible move, this one last
        self.quiet_plies = quiet_plies  # plies without a capture or a man moving
        self.kings_only_plies = kings_only_plies  # plies with only kings on the board and no capture
        self.countdown = countdown  # moves made by the three-king side since the count started
        self._move_cache: list[RawMove] | None = None  # caches: a position never changes
        self._status_cache: Status | None = None

    @classmethod
    def initial(cls, game: DraughtsGame, state: State) -> DraughtsPosition:
        countdown = 0 if game.variant.countdown and _countdown_sides(state) is not None else None
        return cls(game, state, 0, (state,), 0, 0, countdown)

    # ------------------------------------------------------------ the interface

    @property
    def turn(self) -> str:
        return WHITE if self.state.turn == WHITE_TO_MOVE else BLACK

    @property
    def ply(self) -> int:
        return self._ply

    def fen(self) -> str:
        return write_fen(self.game.squares, self.state)

    @property
    def _moves(self) -> list[RawMove]:
        if self._move_cache is None:
            self._move_cache = self.game.engine.legal_moves(self.state, self.game.mandatory_capture)
        return self._move_cache

    def legal_moves(self) -> list[RawMove]:
        return [] if self.status().is_over else list(self._moves)

    def notation(self, move: RawMove) -> str:
        names = self.game.squares.name_of
        separator = "x" if move.captured else "-"
        return names[move.origin] + separator + separator.join(names[i] for i in move.path)

    def parse_move(self, text: str) -> RawMove:
        names = split_move(text)
        if names is None:
            raise InvalidMove(f"{text!r} is not a move; write it like {self._example()}")
        try:
            squares = [self.game.squares.parse(name) for name in names]
        except ValueError as error:
            raise InvalidMove(f"{text!r}: {error}") from None
        if self.status().is_over:
            raise InvalidMove("the game is already over", reason="game_over")
        origin, destination = squares[0], squares[-1]
        candidates = [m for m in self._moves if m.origin == origin and m.destination == destination]
        path = tuple(squares[1:])
        for move in candidates:
            if move.path == path:
                return move
        if len(squares) > 2 or len(candidates) > 1:
            # A full path picks the move whose capture sequence it spells out.
            paths = self.game.engine.captures(self.state, all_paths=True)
            spelled = {m.key for m in paths if m.origin == origin and m.path == path}
            spelled_moves = [m for m in self._moves if m.key in spelled]
            if spelled_moves:
                return spelled_moves[0]
            if len(squares) > 2:
                self._refuse(text, origin)
        if not candidates:
            self._refuse(text, origin)
        if len(candidates) > 1:
            options = ", ".join(self.notation(m) for m in candidates)
            raise AmbiguousMove(f"{text!r} is ambiguous: it could be {options}; write the full capture path")
        return candidates[0]

    def _refuse(self, text: str, origin: int) -> None:
        """Raise ``InvalidMove`` for a move from ``origin`` that is not legal, with the reason why.

        When a capture is compulsory the message lists the captures, the moves the player has to choose from.
        """
        white, black, _, turn = self.state
        mine, theirs = (white, black) if turn == WHITE_TO_MOVE else (black, white)
        captures = [m for m in self._moves if m.captured] if self.game.mandatory_capture else []
        if not (mine | theirs) >> origin & 1:
            reason, message = "no_piece", f"{text!r}: there is no piece on {self.game.squares.name_of[origin]}"
        elif theirs >> origin & 1:
            reason, message = "wrong_color", f"{text!r}: that piece is your opponent's"
        elif captures:
            options = ", ".join(self.notation(m) for m in captures)
            reason, message = "capture_required", f"{text!r}: a capture is compulsory here ({options})"
        else:
            reason, message = "blocked", f"{text!r} is not a legal move here"
        raise InvalidMove(message, reason=reason)

    def _example(self) -> str:
        return "9-13 or 22x15x6" if self.game.squares.numbering == "pdn" else "c3-d4 or d2xf4xh6"

    def is_irreversible(self, move: RawMove) -> bool:
        """A capture or a man's move: no earlier position can come back."""
        return bool(move.captured) or not (self.state.kings >> move.origin) & 1

    def snapshot(self) -> Snapshot:
        counters = _COUNTERS.pack(
            self.quiet_plies, self.kings_only_plies, -1 if self.countdown is None else self.countdown
        )
        earlier = b"".join(_STATE.pack(*state) for state in self.history[:-1])
        return Snapshot(fen=self.fen(), ply=self._ply, memory=counters + earlier)

    def _after(self, move: RawMove) -> DraughtsPosition:
        game = self.game
        before = self.state
        state = game.engine.play(before, move)
        irreversible = self.is_irreversible(move)
        history = (state,) if irreversible else self.history + (state,)
        if not game.tracks_repetition:
            history = (state,)
        quiet = 0 if irreversible else self.quiet_plies + 1
        only_kings = not (state.white | state.black) & ~state.kings
        kings_only = self.kings_only_plies + 1 if only_kings and not move.captured else 0
        countdown = None
        if game.variant.countdown:
            strong = _countdown_sides(state)
            if strong is not None:
                # The same material as before the move continues the count; new material starts it.
                same_material = _countdown_sides(before) == strong
                counted = self.countdown if same_material and self.countdown is not None else 0
                countdown = counted + (1 if before.turn == strong else 0)
        return DraughtsPosition(game, state, self._ply + 1, history, quiet, kings_only, countdown)

    def status(self) -> Status:
        if self._status_cache is None:
            self._status_cache = self._compute_status()
        return self._status_cache

    def _compute_status(self) -> Status:
        state, game, variant = self.state, self.game, self.game.variant
        mover = state.white if state.turn == WHITE_TO_MOVE else state.black
        waiting = state.black if state.turn == WHITE_TO_MOVE else state.white
        winner = BLACK if state.turn == WHITE_TO_MOVE else WHITE
        if not mover:
            return Status(winner, "no_pieces")
        if not waiting:  # only from a set-up position: the side to move has already won
            return Status(WHITE if winner == BLACK else BLACK, "no_pieces")
        if not self._moves:
            return Status(winner, "no_moves")
        if self.countdown is not None and self.countdown >= COUNTDOWN_MOVES:
            return Status(DRAW, "three_kings_countdown")
        if game.tracks_repetition and self.history.count(state) >= 3:
            return Status(DRAW, "threefold_repetition")
        if variant.quiet_plies_limit and self.quiet_plies >= variant.quiet_plies_limit:
            return Status(DRAW, "forty_moves")
        if game.options.get("thirty_moves") and self.kings_only_plies >= KINGS_ONLY_PLIES:
            return Status(DRAW, "thirty_moves")
        limit = game.options.get("move_limit")
        if limit and self._ply >= limit:
            return Status(DRAW, "move_limit")
        return IN_PROGRESS

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DraughtsPosition) and (self.game.name, self.state) == (other.game.name, other.state)

    def __hash__(self) -> int:
        return hash((self.game.name, self.state))
