"""The searcher's view of draughts: moves from the bitboard engine and an evaluation per variant.

The evaluation counts, for each side, in hundredths of a man:

* material: men, and kings worth more (far more with flying kings);
* advancement: men near the crowning row are worth more, the last rows most;
* tempo: how far the men have come in all, which matters more as the board empties (the side whose
  men are further on runs out of safe waiting moves later and crowns sooner);
* back-rank guard: men still on their own first row keep the opponent from crowning, while the
  opponent has men that could crown;
* mobility: the quiet moves each side has;
* kings: a king in the centre, or (with flying kings) on the long diagonal, does more.

Endings that the rules make drawn score 0: in Tanzanian draughts a lone king against at most three
pieces is a draw unless caught quickly (the 12-move count), so the searcher has to find the catch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..draughts.engine import BLACK_TO_MOVE, WHITE_TO_MOVE, RawMove, State, engine_for
from ..draughts.variants import VARIANTS, Variant
from .core import WIN_SCORE


@dataclass(frozen=True)
class DraughtsWeights:
    man: int = 100
    king: int = 150
    # Bonus for a man by rows advanced from its own first row (index 0), the crowning row excluded.
    advancement: tuple[int, ...] = (0, 0, 1, 3, 6, 10, 16)
    tempo: int = 2  # per row advanced, multiplied by how empty the board is (0 at the start, 1 at the end)
    back_rank: int = 6  # per man on its own first row while the opponent has men
    mobility: int = 2  # per quiet move more than the opponent
    king_centre: int = 6
    king_long_diagonal: int = 0


WEIGHTS = {
    "english": DraughtsWeights(),
    # Flying kings sweep the board: a king is worth about three men, and the long diagonal matters.
    "tanzanian": DraughtsWeights(king=300, back_rank=8, mobility=1, king_long_diagonal=15),
}


class DraughtsModel:
    """A ``GameModel`` for one draughts variant, on the engine's raw ``State`` and ``RawMove`` values."""

    def __init__(
        self, variant: Variant | str, *, mandatory_capture: bool = True, weights: DraughtsWeights | None = None
    ):
        if isinstance(variant, str):
            variant = VARIANTS[variant]
        self.variant = variant
        self.engine = engine = engine_for(variant)
        self.mandatory = mandatory_capture
        self.weights = weights or WEIGHTS.get(variant.name, DraughtsWeights())
        self.play = engine.play  # bound once: the hottest call of the search
        size = variant.size
        self.pieces_at_start = 2 * variant.rows_of_men * size // 2
        rows = engine.row_mask
        # For each count of pieces gone from the board: (row mask, bonus) pairs for the men of each
        # colour, advancement and tempo folded into one weight per row (rows with no weight left out).
        table = self.weights.advancement
        advancement = [table[min(r, len(table) - 1)] for r in range(size - 1)]
        self.white_rows: list[list[tuple[int, int]]] = []
        self.black_rows: list[list[tuple[int, int]]] = []
        for gone in range(self.pieces_at_start + 1):
            weight = [advancement[r] + self.weights.tempo * r * gone // self.pieces_at_start for r in range(size - 1)]
            self.white_rows.append([(rows[r], weight[r]) for r in range(1, size - 1) if weight[r]])
            self.black_rows.append([(rows[size - 1 - r], weight[r]) for r in range(1, size - 1) if weight[r]])
        self.white_home, self.black_home = rows[0], rows[size - 1]
        middle = range(size // 2 - 2, size // 2 + 2)
        self.centre = sum(1 << i for i, (r, f) in engine.coords.items() if r in middle and f in middle)
        self.long_diagonal = sum(1 << i for i, (r, f) in engine.coords.items() if r == f)
        self.lone_king_draws = variant.countdown  # Tanzanian: the 3-kings-against-1 count
        self._counted: tuple[State | None, int] = (None, 0)  # (state, its side to move's quiet moves)

    # ------------------------------------------------------------- GameModel

    def moves(self, state: State) -> list[RawMove]:
        return self.engine.legal_moves(state, self.mandatory)

    def key(self, state: State) -> State:
        return state

    def move_key(self, move: RawMove) -> RawMove:
        return move

    def terminal(self, state: State, moves: Sequence[RawMove]) -> int | None:
        return None if moves else -WIN_SCORE  # no piece or no move: the side to move has lost

    def forced(self, state: State, moves: Sequence[RawMove]) -> bool:
        return self.mandatory and bool(moves) and bool(moves[0].captured)

    def quiescence_moves(self, state: State) -> tuple[list[RawMove], bool]:
        captures = self.engine.captures(state)
        if captures:
            return captures, self.mandatory
        quiet = self.engine.count_quiet(state)
        self._counted = (state, quiet)  # evaluate() usually asks for the same count next
        if not quiet:
            return captures, True  # no move at all: the game is lost here
        return captures, False

    def order_hint(self, move: RawMove) -> int:
        return move.captured.bit_count() * 10 + (5 if move.crowned else 0)

    def evaluate(self, state: State, moves: Sequence[RawMove] = ()) -> int:
        score = self.white_score(state)
        return score if state.turn == WHITE_TO_MOVE else -score

    # ------------------------------------------------------------- evaluation

    def drawn_ending(self, state: State) -> bool:
        """An ending the rules make a draw unless it is won by force soon (Tanzanian lone king)."""
        white, black, kings, _ = state
        return self.lone_king_draws and _lone_king_holds(
            white.bit_count(), black.bit_count(), white & kings, black & kings
        )

    def material(self, state: State) -> int:
        """Men and kings only, White's minus Black's."""
        white, black, kings, _ = state
        w = self.weights
        return w.man * ((white & ~kings).bit_count() - (black & ~kings).bit_count()) + w.king * (
            (white & kings).bit_count() - (black & kings).bit_count()
        )

    def white_score(self, state: State) -> int:
        white, black, kings, _ = state
        w = self.weights
        white_men, black_men = white & ~kings, black & ~kings
        white_kings, black_kings = white & kings, black & kings
        white_count, black_count = white.bit_count(), black.bit_count()
        if self.lone_king_draws and _lone_king_holds(white_count, black_count, white_kings, black_kings):
            return 0  # drawn unless the searcher finds the catch
        score = w.man * (white_men.bit_count() - black_men.bit_count()) + w.king * (
            white_kings.bit_count() - black_kings.bit_count()
        )
        gone = max(0, self.pieces_at_start - white_count - black_count)
        for mask, bonus in self.white_rows[gone]:
            if white_men & mask:
                score += bonus * (white_men & mask).bit_count()
        for mask, bonus in self.black_rows[gone]:
            if black_men & mask:
                score -= bonus * (black_men & mask).bit_count()
        if black_men:
            score += w.back_rank * (white_men & self.white_home).bit_count()
        if white_men:
            score -= w.back_rank * (black_men & self.black_home).bit_count()
        if w.mobility:
            count = self.engine.count_quiet
            counted_state, counted = self._counted
            if counted_state is state:
                other = count(State(white, black, kings, 1 - state.turn))
                mobility = counted - other if state.turn == WHITE_TO_MOVE else other - counted
            else:
                mobility = count(State(white, black, kings, WHITE_TO_MOVE)) - count(
                    State(white, black, kings, BLACK_TO_MOVE)
                )
            score += w.mobility * mobility
        if kings:
            score += w.king_centre * ((white_kings & self.centre).bit_count() - (black_kings & self.centre).bit_count())
            if w.king_long_diagonal:
                diagonal = self.long_diagonal
                score += w.king_long_diagonal * (
                    (white_kings & diagonal).bit_count() - (black_kings & diagonal).bit_count()
                )
        return score


def _lone_king_holds(white_count: int, black_count: int, white_kings: int, black_kings: int) -> bool:
    """A lone king against at most three pieces: a draw by the countdown unless caught at once."""
    if black_count == 1 and black_kings and white_count <= 3:
        return True
    return white_count == 1 and bool(white_kings) and black_count <= 3
