"""An arena: players present are paired as they become free; win 2, draw 1, loss 0; two wins in a row put a
player on a streak that doubles each next game until a game that is not a win; a draw before ply 20 scores
nothing; a game in which the computer made more than half of a player's moves scores nothing for them (and
is not a win). Pure: the sheet of a player is a function of their results in the order the games ended.

The pairing wave takes the players waiting now and pairs them closest scores first, never the same opponent
as last time, never a blocked pair. It is greedy over the players sorted by score with a short look-ahead,
then repairs what the greedy pass left alone by swapping into a pair already made: linear in the number of
players for all practical purposes (500 in about a millisecond, ``make bench tournaments``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.domain.values import QUICK_DRAW_PLIES, GameResult

ARENA_WIN, ARENA_DRAW = 2, 1  # points (whole) of one game off a streak
STREAK_AFTER = 2  # wins in a row that start a streak
LOOK_AHEAD = 8  # candidates the greedy pass tries for each player, in score order


def game_points(result: GameResult, player: str, on_streak: bool) -> tuple[int, bool]:
    """(points, won) of one arena game for ``player``."""
    if result.computer_stood_in_for(player) or result.void:
        return 0, False
    if result.winner is None:
        points = 0 if result.plies < QUICK_DRAW_PLIES else ARENA_DRAW
    else:
        points = ARENA_WIN if result.won_by(player) else 0
    won = result.winner is not None and result.won_by(player)
    return points * (2 if on_streak else 1), won


@dataclass(frozen=True)
class Sheet:
    player: str
    scores: tuple[int, ...]  # each game's points, in the order the games ended
    wins: int
    streak: int  # wins in a row at the end of the sheet

    @property
    def points(self) -> int:
        return sum(self.scores)

    @property
    def on_streak(self) -> bool:
        return self.streak >= STREAK_AFTER


def sheet(player: str, results: Sequence[GameResult]) -> Sheet:
    """The player's sheet from their finished games (any order: sorted here by when each ended)."""
    scores: list[int] = []
    streak = wins = 0
    for result in sorted(results, key=lambda item: (item.at, item.game_id)):
        points, won = game_points(result, player, streak >= STREAK_AFTER)
        scores.append(points)
        streak = streak + 1 if won else 0
        wins += won
    return Sheet(player, tuple(scores), wins, streak)


def arena_ranking(sheets: Sequence[Sheet]) -> list[tuple[int, Sheet]]:
    """(rank, sheet), best first: points, then wins; equal on both share a rank."""
    key: Callable[[Sheet], tuple[int, int]] = lambda item: (item.points, item.wins)  # noqa: E731
    ordered = sorted(sheets, key=lambda item: (*key(item), item.player), reverse=True)
    return [(1 + sum(1 for other in sheets if key(other) > key(item)), item) for item in ordered]


@dataclass(frozen=True)
class Waiting:
    """A player present and free: their arena points, their last opponent, Whites minus Blacks so far."""

    player: str
    points: int
    last_opponent: str | None = None
    colour_balance: int = 0
    rating: int = 1500


Blocked = Callable[[str, str], bool]


def pair_wave(waiting: Sequence[Waiting], blocked: Blocked = lambda one, other: False) -> list[tuple[str, str]]:
    """Pairs (white, black) of the waiting players: closest points first; never a player's last opponent,
    never a blocked pair (either way), never a player with themselves. At most one player stays unpaired when
    every pair could be allowed; fewer pairs only when the rules leave no other way."""
    ordered = sorted(
        {item.player: item for item in waiting}.values(), key=lambda item: (-item.points, -item.rating, item.player)
    )

    def allowed(one: Waiting, other: Waiting) -> bool:
        return (
            one.player != other.player
            and one.last_opponent != other.player
            and other.last_opponent != one.player
            and not blocked(one.player, other.player)
            and not blocked(other.player, one.player)
        )

    taken = [False] * len(ordered)
    pairs: list[tuple[Waiting, Waiting]] = []
    for index, player in enumerate(ordered):
        if taken[index]:
            continue
        tried = 0
        for candidate in range(index + 1, len(ordered)):
            if taken[candidate]:
                continue
            if allowed(player, ordered[candidate]):
                taken[index] = taken[candidate] = True
                pairs.append((player, ordered[candidate]))
                break
            tried += 1
            if tried >= LOOK_AHEAD:
                break
    left = [player for index, player in enumerate(ordered) if not taken[index]]
    pairs = _repair(pairs, left, allowed)
    return [_coloured(one, other) for one, other in pairs]


def _repair(
    pairs: list[tuple[Waiting, Waiting]], left: list[Waiting], allowed: Callable[[Waiting, Waiting], bool]
) -> list[tuple[Waiting, Waiting]]:
    """Pair what the greedy pass left: directly when allowed, else by swapping partners with a pair made."""
    pending = list(left)
    while len(pending) >= 2:
        one = pending.pop(0)
        partner = next((other for other in pending if allowed(one, other)), None)
        if partner is not None:
            pending.remove(partner)
            pairs.append((one, partner))
            continue
        for other in pending:
            swap = _swap(pairs, one, other, allowed)
            if swap is not None:
                pending.remove(other)
                pairs = swap
                break
    return pairs


def _swap(
    pairs: list[tuple[Waiting, Waiting]], one: Waiting, other: Waiting, allowed: Callable[[Waiting, Waiting], bool]
) -> list[tuple[Waiting, Waiting]] | None:
    for index, (first, second) in enumerate(pairs):
        for x, y in ((first, second), (second, first)):
            if allowed(one, x) and allowed(other, y):
                return [*pairs[:index], (one, x), (other, y), *pairs[index + 1 :]]
    return None


def _coloured(one: Waiting, other: Waiting) -> tuple[str, str]:
    """White to the player who has had fewer Whites; on equal balance to the lower-placed of the two."""
    if one.colour_balance < other.colour_balance:
        return one.player, other.player
    return other.player, one.player
