"""The tournaments' typed values and plain refusals, shared by the league and the arena.

Scores are counted in **half points** (``int``): a league's win is 2, a draw 1; an arena's win is 4 half
points (2 points). Whole numbers keep sums, tie-breaks and comparisons exact; views divide by two.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from common.errors import DomainError


class Format(StrEnum):
    LEAGUE = "league"
    ARENA = "arena"
    CUP = "cup"  # groups then knockout


class State(StrEnum):
    OPEN = "open"  # taking entries
    RUNNING = "running"
    FINISHED = "finished"


LEAGUE_MIN, LEAGUE_MAX = 3, 8
ARENA_MAX = 500
ARENA_MINUTES_MIN, ARENA_MINUTES_MAX = 20, 120
#: A draw agreed or reached before this many plies scores nothing in an arena (lichess's rule).
QUICK_DRAW_PLIES = 20
WIN, DRAW, LOSS = 2, 1, 0  # half points of one game


@dataclass(frozen=True)
class GameResult:
    """How one tournament game ended, as the tournament needs it.

    ``winner`` is ``"white"``, ``"black"`` or ``None`` (a draw). ``on_time``: the loser lost on time.
    ``computer_white``/``computer_black``: the computer made more than half of that side's moves (it stood in
    for an absent player). ``plies``: moves played. ``at``: when it ended (epoch ms). A game aborted in a
    tournament is lost by whoever aborted it (a tournament game cannot be called off); one abandoned by both is
    ``void``: nothing for either.
    """

    game_id: str
    white: str
    black: str
    winner: str | None
    at: int
    plies: int = 0
    on_time: bool = False
    computer_white: bool = False
    computer_black: bool = False
    void: bool = False  # abandoned by both (the computer held both seats): nothing for either

    def colour_of(self, player: str) -> str:
        if player == self.white:
            return "white"
        if player == self.black:
            return "black"
        raise ValueError(f"{player} did not play game {self.game_id}")

    def opponent_of(self, player: str) -> str:
        return self.black if player == self.white else self.white

    def won_by(self, player: str) -> bool:
        return self.winner is not None and self.winner == self.colour_of(player)

    def lost_by(self, player: str) -> bool:
        return self.winner is not None and self.winner != self.colour_of(player)

    def computer_stood_in_for(self, player: str) -> bool:
        return self.computer_white if self.colour_of(player) == "white" else self.computer_black


def base_score(result: GameResult, player: str) -> int:
    """Half points of one game by the seeds' ranked rule (win 1, draw ½), before any tournament rule."""
    if result.void:
        return LOSS
    if result.winner is None:
        return DRAW
    return WIN if result.won_by(player) else LOSS


def half_points_text(half_points: int) -> str:
    """``3`` -> ``"1½"``, ``1`` -> ``"½"``, ``4`` -> ``"2"``: a score as a football-like result shows it."""
    whole, half = divmod(half_points, 2)
    if not half:
        return str(whole)
    return "½" if whole == 0 else f"{whole}½"


# ------------------------------------------------------------------------------------------- refusals
class TournamentError(DomainError, code="invalid_tournament"): ...


class TournamentNotFound(TournamentError, code="tournament_not_found"): ...


class InvalidLeagueSize(TournamentError, code="invalid_league_size"): ...


class InvalidArenaLength(TournamentError, code="invalid_arena_length"): ...


class StartsInPast(TournamentError, code="starts_in_past"): ...


class ArenaNeedsLiveTable(TournamentError, code="arena_needs_live_table"): ...


class TournamentStarted(TournamentError, code="tournament_started"): ...


class TournamentFull(TournamentError, code="tournament_full"): ...


class TournamentOver(TournamentError, code="tournament_over"): ...


class AlreadyEntered(TournamentError, code="already_entered"): ...


class NotEntered(TournamentError, code="not_entered"): ...


class NotAnArena(TournamentError, code="not_an_arena"): ...


class InvalidTournamentInvite(TournamentError, code="invalid_tournament_invite"): ...


class BlockedEntrant(TournamentError, code="blocked_entrant"):
    """A player in the league blocked the joiner, or the joiner blocked one of them: a league pairs everyone,
    so it cannot seat both (which of the two blocked is never said)."""


class InvalidCupSize(TournamentError, code="invalid_cup_size"):
    """Groups then knockout: 2, 4 or 8 groups of 4 to 6 players."""
