"""Game-independent alpha-beta search: iterative deepening, negamax with principal-variation windows,
a transposition table, killer and history move ordering, and quiescence.

The searcher knows nothing of any game. A ``Model`` (see ``GameModel``) supplies the moves, the
evaluation and what "forced" means: in draughts a position with a capture must be searched through
(the capture is compulsory), in chess a position in check would be. Work is bounded by a node budget,
so the same call gives the same answer on any machine, and, when a ``deadline`` is given, by a clock
too: a safety net for positions whose nodes cost far more than usual (a board full of flying kings),
read every ``CLOCK_EVERY`` nodes. The node budget is what stops the search in ordinary positions; the
deadline only when a search would take much longer than its node budget usually does.

Scores are from the side to move's point of view. A won game is ``WIN_SCORE`` minus the plies it
takes, so quicker wins score higher; anything beyond ``WIN_BOUND`` is a proven result.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

WIN_SCORE = 100_000
WIN_BOUND = WIN_SCORE - 1_000  # scores beyond this are forced wins (or losses), not evaluations
MAX_PLY = 120  # hard stop for extensions along one line
INFINITY = WIN_SCORE + 1
#: How many nodes pass between two readings of the clock (when there is a deadline): a node costs 10 to 100
#: microseconds, so the deadline is overrun by a few milliseconds at most, and the clock costs nothing.
CLOCK_EVERY = 64

_EXACT, _LOWER, _UPPER = 0, 1, 2


class NodeLimitReached(Exception):
    """The node budget ran out before the search could give an answer."""


class TimeLimitReached(NodeLimitReached):
    """The deadline passed before the search could give an answer (a kind of budget running out)."""


class GameModel(Protocol):
    """What the searcher needs from a game. States must be hashable values (or have a ``key``)."""

    def moves(self, state: Any) -> Sequence[Any]:
        """The legal moves in a stable order; empty when the side to move cannot move."""

    def play(self, state: Any, move: Any) -> Any:
        """The state after ``move`` (a new value; ``state`` is not changed)."""

    def key(self, state: Any) -> Hashable:
        """The transposition-table key: equal for positions that play the same."""

    def move_key(self, move: Any) -> Hashable:
        """A hashable name of a move, for killers, history and the table."""

    def terminal(self, state: Any, moves: Sequence[Any]) -> int | None:
        """The score if the game is over here (``-WIN_SCORE`` for a loss, 0 for a draw), else None."""

    def forced(self, state: Any, moves: Sequence[Any]) -> bool:
        """True when the position cannot be judged standing still (a compulsory capture, a check)."""

    def quiescence_moves(self, state: Any) -> tuple[Sequence[Any], bool]:
        """The moves quiescence tries (captures), and whether they are forced (no standing pat).

        Forced with no moves means the side to move has no legal move at all: ``terminal`` decides.
        """

    def evaluate(self, state: Any, moves: Sequence[Any] = ()) -> int:
        """A static score for the side to move, in hundredths of the game's basic unit (a man, a pawn)."""

    def order_hint(self, move: Any) -> int:
        """A cheap guess of how good a move is, larger first (captures, promotions)."""


@dataclass
class SearchResult:
    move: Any | None  # the best move found; None only when there is no legal move
    score: int  # for the side to move
    depth: int  # the deepest fully searched iteration
    nodes: int  # nodes spent by this call
    pv: list[Any] = field(default_factory=list)  # the expected line, the best move first
    complete: bool = True  # False when the node budget stopped an iteration early

    @property
    def is_win(self) -> bool:
        return self.score > WIN_BOUND

    @property
    def is_loss(self) -> bool:
        return self.score < -WIN_BOUND


def is_decisive(score: int) -> bool:
    """Whether a score is a proven win or loss rather than an evaluation."""
    return abs(score) > WIN_BOUND


class Searcher:
    """An alpha-beta searcher over one ``GameModel``; keeps its table between calls until ``clear``."""

    def __init__(self, model: GameModel, *, table_limit: int = 500_000, clock: Callable[[], float] | None = None):
        """``table_limit`` caps the transposition table's entries (0 switches the table off); ``clock`` is what
        a ``deadline`` is read against (``time.perf_counter`` on the server; a fake one in tests)."""
        self.model = model
        self.table_limit = table_limit
        self.clock = clock
        self.nodes = 0
        self._stop_at = 0  # the next node count at which the budget is looked at (``_budget_check``)
        self._node_stop = 0  # the node budget's end
        self._deadline: float | None = None
        self.clear()

    def clear(self) -> None:
        """Forget the transposition table, killers and history (for a fresh, reproducible start)."""
        self.table: dict[Hashable, tuple[int, int, int, Hashable | None]] = {}
        self.killers: list[list[Hashable | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.history: dict[Hashable, int] = {}

    # ------------------------------------------------------------- public calls

    def search(
        self, state: Any, *, max_depth: int = 64, node_limit: int = 100_000, deadline: float | None = None
    ) -> SearchResult:
        """Iterative deepening until ``max_depth``, a proven result, ``node_limit`` nodes or ``deadline``.

        Always returns a legal move when there is one, even if the budget is too small for one
        iteration. Unless the deadline stops it, the answer depends only on the state, the limits and
        the table's contents.
        """
        model = self.model
        start_nodes = self.nodes
        self._set_budget(node_limit, deadline)
        moves = list(model.moves(state))
        if not moves:
            over = model.terminal(state, moves)
            return SearchResult(None, over if over is not None else 0, 0, 0, [], True)
        ordered = list(self._ordered(moves, self._table_move(state), 0))
        result = SearchResult(ordered[0], 0, 0, 0, [ordered[0]], False)
        for depth in range(1, max_depth + 1):
            try:
                score, best = self._root(state, ordered, depth)
            except NodeLimitReached:
                result.complete = False
                break
            ordered.remove(best)
            ordered.insert(0, best)
            result = SearchResult(best, score, depth, 0, self.principal_variation(state, best), True)
            if is_decisive(score) and WIN_SCORE - abs(score) <= depth:
                break  # proven within the horizon: deeper search cannot change it
        result.nodes = self.nodes - start_nodes
        return result

    def value(
        self,
        state: Any,
        depth: int,
        alpha: int = -INFINITY,
        beta: int = INFINITY,
        *,
        node_limit: int = 100_000,
        deadline: float | None = None,
    ) -> int:
        """The score of ``state`` searched ``depth`` plies deep (iteratively, for ordering).

        With a narrow window the result is a bound, as usual: ``value <= alpha`` means "at most",
        ``value >= beta`` "at least". Raises ``NodeLimitReached`` when the budget runs out
        (``TimeLimitReached`` when the deadline passed).
        """
        self._set_budget(node_limit, deadline)
        score = 0
        for iteration in range(1, depth + 1) if depth > 0 else (0,):
            score = self._negamax(state, iteration, alpha, beta, 0)
            if is_decisive(score) and WIN_SCORE - abs(score) <= iteration:
                break
        return score

    def values_by_depth(
        self,
        state: Any,
        depth: int,
        window: Callable[[int], tuple[int, int]],
        *,
        node_limit: int = 100_000,
    ) -> list[int]:
        """The score of ``state`` at every depth from 1 to ``depth``, one iteration each, the table kept
        between them; iteration ``d`` is searched in ``window(d)`` (a bound outside it, as in ``value``).

        One node budget for all the iterations (``NodeLimitReached`` when it runs out). A result proven
        within an iteration's horizon stands for the deeper ones, which are not searched.
        """
        self._set_budget(node_limit, None)
        scores: list[int] = []
        for iteration in range(1, depth + 1):
            alpha, beta = window(iteration)
            score = self._negamax(state, iteration, alpha, beta, 0)
            scores.append(score)
            if is_decisive(score) and WIN_SCORE - abs(score) <= iteration:
                return scores + [score] * (depth - iteration)
        return scores

    def principal_variation(self, state: Any, first: Any, limit: int = 24) -> list[Any]:
        """The expected line after ``first``, read back from the table."""
        line = [first]
        seen = {self.model.key(state)}
        state = self.model.play(state, first)
        while len(line) < limit:
            key = self.model.key(state)
            if key in seen:
                break
            seen.add(key)
            wanted = self._table_move(state)
            if wanted is None:
                break
            move = next((m for m in self.model.moves(state) if self.model.move_key(m) == wanted), None)
            if move is None:
                break
            line.append(move)
            state = self.model.play(state, move)
        return line

    # ------------------------------------------------------------- the budget

    def _set_budget(self, node_limit: int, deadline: float | None) -> None:
        if deadline is not None and self.clock is None:
            raise ValueError("a deadline needs the searcher's clock")
        self._node_stop = self.nodes + node_limit
        self._deadline = deadline
        self._stop_at = self.nodes  # look at the budget before the first node
        if deadline is None:
            self._stop_at = self._node_stop

    def _budget_check(self) -> None:
        """Called when ``nodes`` reaches ``_stop_at``: stop, or set the next check ``CLOCK_EVERY`` nodes on.

        The hot path compares one counter, as with a node budget alone; the clock is read here only.
        """
        if self.nodes >= self._node_stop:
            raise NodeLimitReached
        if self._deadline is not None and self.clock is not None and self.clock() >= self._deadline:
            raise TimeLimitReached
        self._stop_at = min(self._node_stop, self.nodes + CLOCK_EVERY)

    # ------------------------------------------------------------- the search

    def _root(self, state: Any, ordered: list[Any], depth: int) -> tuple[int, Any]:
        model = self.model
        alpha, beta = -INFINITY, INFINITY
        best_score, best_move = -INFINITY, ordered[0]
        for index, move in enumerate(ordered):
            child = model.play(state, move)
            if index == 0:
                score = -self._negamax(child, depth - 1, -beta, -alpha, 1)
            else:
                score = -self._negamax(child, depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, 1)
            if score > best_score:
                best_score, best_move = score, move
                alpha = max(alpha, score)
        self._store(model.key(state), depth, _EXACT, best_score, model.move_key(best_move), 0)
        return best_score, best_move

    def _negamax(self, state: Any, depth: int, alpha: int, beta: int, ply: int) -> int:  # noqa: C901
        # The search's inner loop, one frame per node: split into calls it costs measurable time (make bench).
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(state, alpha, beta, ply)
        if self.nodes >= self._stop_at:
            self._budget_check()
        self.nodes += 1
        model = self.model
        moves = model.moves(state)
        over = model.terminal(state, moves)
        if over is not None:
            return over + ply if over < 0 else over - ply if over > 0 else 0
        forced = model.forced(state, moves)
        key = model.key(state)
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            entry_depth, flag, stored, table_move = entry
            if entry_depth >= depth:
                score = _from_table(stored, ply)
                if flag == _EXACT:
                    return score
                if flag == _LOWER and score >= beta:
                    return score
                if flag == _UPPER and score <= alpha:
                    return score
        # A compulsory capture or a lone reply costs no depth: such lines are searched to their end.
        child_depth = depth if forced or len(moves) == 1 else depth - 1
        original_alpha = alpha
        best_score, best_key = -INFINITY, None
        for index, move in enumerate(self._ordered(moves, table_move, ply)):
            child = model.play(state, move)
            if index == 0:
                score = -self._negamax(child, child_depth, -beta, -alpha, ply + 1)
            else:
                score = -self._negamax(child, child_depth, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self._negamax(child, child_depth, -beta, -alpha, ply + 1)
            if score > best_score:
                best_score, best_key = score, model.move_key(move)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not forced:
                            self._reward(best_key, depth, ply)
                        break
        flag = _LOWER if best_score >= beta else _UPPER if best_score <= original_alpha else _EXACT
        self._store(key, depth, flag, best_score, best_key, ply)
        return best_score

    def _quiesce(self, state: Any, alpha: int, beta: int, ply: int) -> int:
        """Search only the moves that change the material balance, until the position is quiet."""
        if self.nodes >= self._stop_at:
            self._budget_check()
        self.nodes += 1
        model = self.model
        candidates, forced = model.quiescence_moves(state)
        if forced:
            if not candidates:
                over = model.terminal(state, candidates)
                if over is None:  # the model broke its contract: no legal move is always an end
                    raise RuntimeError("a position without legal moves must be terminal")
                return over + ply if over < 0 else over - ply if over > 0 else 0
            if ply >= MAX_PLY:
                return model.evaluate(state, candidates)
            best = -INFINITY
        else:
            best = model.evaluate(state, candidates)
            if best >= beta or ply >= MAX_PLY:
                return best
            alpha = max(alpha, best)
        if len(candidates) > 1:
            candidates = sorted(candidates, key=model.order_hint, reverse=True)
        for move in candidates:
            score = -self._quiesce(model.play(state, move), -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    # ------------------------------------------------------------- ordering and the table

    def _ordered(self, moves: Sequence[Any], table_move: Hashable | None, ply: int) -> Sequence[Any]:
        if len(moves) < 2:
            return moves
        model = self.model
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        history = self.history

        def rank(move: Any) -> int:
            key = model.move_key(move)
            if key == table_move:
                return 1 << 40
            hint = model.order_hint(move)
            if hint:
                return (1 << 30) + hint
            if key == killers[0]:
                return (1 << 29) + 1
            if key == killers[1]:
                return 1 << 29
            return history.get(key, 0)

        return sorted(moves, key=rank, reverse=True)

    def _reward(self, move_key: Hashable, depth: int, ply: int) -> None:
        """A quiet move that refuted the opponent: try it early at this ply and everywhere."""
        if ply < len(self.killers):
            killers = self.killers[ply]
            if killers[0] != move_key:
                killers[1], killers[0] = killers[0], move_key
        self.history[move_key] = min(self.history.get(move_key, 0) + depth * depth, 1 << 28)

    def _table_move(self, state: Any) -> Hashable | None:
        entry = self.table.get(self.model.key(state))
        return entry[3] if entry is not None else None

    def _store(self, key: Hashable, depth: int, flag: int, score: int, move_key: Hashable | None, ply: int) -> None:
        if self.table_limit <= 0:
            return  # the table is switched off
        table = self.table
        old = table.get(key)
        if old is not None and old[0] > depth and old[1] == _EXACT:
            return  # keep the deeper exact answer
        if old is None and len(table) >= self.table_limit:
            table.clear()  # deterministic, unlike an eviction order that depends on memory
        table[key] = (depth, flag, _to_table(score, ply), move_key)


def _to_table(score: int, ply: int) -> int:
    """Wins are stored as distance from this node, so they stay true when reached by another path."""
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score
