"""A player's rating in one game (``GameRating``) and what a rated game's end does to it. Pure.

Every rated game is a Glicko-2 rating period of one game for each player, against the opponent's rating as it
was when the game ended; a draw scores half a win. The change is computed once (``rating_change``) and then
added to each player's stored rating (``GameRating.after``): adding, not overwriting, so two games of one
player that end at the same moment both count.

A player away grows less certain: for each whole ``RATING_PERIOD_MS`` since their last rated game, Glicko-2's
step 6 widens the deviation (``glicko2.idle``), up to a new player's. A week suits correspondence play: a game
lasts days, so a player who plays at all plays most weeks, and a week without a game is a real absence,
while a day would widen the deviation of a player merely waiting for an opponent's move. The growth is applied
whenever a rating is read (``GameRating.at``) and before the next game's update; nothing is written for it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from common.ratings import glicko2

from games.domain import COLORS, DAY_MS, Color, GameHead, Result
from games.domain.rating_change import RatingChange, SideChange
from games.history.domain import is_private

START = glicko2.Rating(1500.0, 350.0, 0.06)
#: A rating is provisional ("1500?") while its deviation is above this.
PROVISIONAL_RD = 110.0
#: The deviation stays within these bounds (Glicko-2's own floor is near 45 for a regular player).
MIN_RD, MAX_RD = 45.0, 350.0
#: The rating list: at least ``BOARD_GAMES`` rated games in the window, against at least ``BOARD_OPPONENTS``
#: different opponents whose ratings were established (not provisional) when each game ended, and a deviation
#: below ``BOARD_RD``. A farm of throwaway players is all newcomers: it can feed a rating, never list it.
BOARD_GAMES = 10
BOARD_OPPONENTS = 5
BOARD_WINDOW_MS = 90 * DAY_MS
BOARD_RD = 100.0
#: The games against established opponents kept in a rating (when each ended, the opponent's id).
EARNED_KEPT = 50
#: Repetition does not pay: of the rated games of one game between the same two players, only the first
#: ``PAIRING_LIMIT`` started in any ``PAIRING_WINDOW_MS`` are rated; later ones are played casual.
PAIRING_LIMIT = 3
PAIRING_WINDOW_MS = DAY_MS
#: Glicko-2's rating period for a player without games: the deviation grows once per whole week away.
RATING_PERIOD_MS = 7 * DAY_MS
#: The ids of a player's last rated games kept in the rating: a game among them is never applied again.
APPLIED_KEPT = 50
#: The points of the rating history kept (a point per rated game; the graph shows the last ones).
HISTORY_KEPT = 1000

SCORES: dict[Result, float] = {"white": 1.0, "black": 0.0, "draw": 0.5}


def rating_change(
    white: glicko2.Rating, black: glicko2.Rating, result: Result, stood_in: frozenset[Color] = frozenset()
) -> RatingChange:
    """Both players' change for a game that ended with ``result`` (a draw is half a win for each). A side the
    computer stood in for (``stood_in``) gains nothing from the game: it may lose, as a player who left loses
    on time, but a win the computer played earns its player no rating (docs/games.md, "Fair play")."""
    score = SCORES[result]
    white_side = _side(white, black, score, "white" in stood_in, _earned(black, "black" in stood_in))
    black_side = _side(black, white, 1.0 - score, "black" in stood_in, _earned(white, "white" in stood_in))
    return RatingChange(white_side, black_side)


def _earned(opponent: glicko2.Rating, opponent_stood_in: bool) -> bool:
    """Whether a game counts toward the rating list's opponents: the opponent was established and played."""
    return opponent.rd <= PROVISIONAL_RD and not opponent_stood_in


def opponent_weight(opponent: glicko2.Rating) -> float:
    """How much a game against ``opponent`` may move a rating: 1 against an established opponent, and
    (``PROVISIONAL_RD`` / its deviation)² against a provisional one (about 0.1 against a newcomer): a rating
    nobody has tested says little of the player who beat it, and a farm of throwaway players is all newcomers."""
    return min(1.0, (PROVISIONAL_RD / opponent.rd) ** 2)


def _side(
    player: glicko2.Rating, opponent: glicko2.Rating, score: float, stood_in: bool = False, earned: bool = False
) -> SideChange:
    after = glicko2.update(player, [(opponent, score)])
    gain = (after.rating - player.rating) * opponent_weight(opponent)
    if stood_in and gain > 0:
        return SideChange(0.0, 0.0, player.volatility)  # no gain, and no certainty won from a game not played
    return SideChange(gain, after.rd - player.rd, after.volatility, earned and not stood_in)


@dataclass(frozen=True)
class GameRating:
    """One player's rating in one game, as stored; ``version`` 0 is a rating not stored yet (the start)."""

    player_id: str
    game: str
    name: str | None = None
    rating: glicko2.Rating = START
    games: int = 0
    #: The ids of the last rated games applied, newest last (``APPLIED_KEPT`` at most).
    applied: tuple[str, ...] = ()
    #: (when the game ended, epoch ms; the rating after it, whole points), oldest first.
    history: tuple[tuple[int, int], ...] = ()
    version: int = 0
    #: When the last rated game applied ended (epoch ms); None when not stored (``last_game_at`` falls back).
    last_at: int | None = None
    #: The rated games against established opponents (``SideChange.earned``): (when it ended, the opponent's
    #: id), oldest first, ``EARNED_KEPT`` at most.
    earned: tuple[tuple[int, str], ...] = ()
    #: The country the player's public card showed when this rating was read (None: none, or hidden): a listed
    #: rating is listed under it too (``common.ratings.repository``); never stored as the player's country.
    country: str | None = None

    @property
    def provisional(self) -> bool:
        return self.rating.rd > PROVISIONAL_RD

    @property
    def last_game_at(self) -> int | None:
        """When the last rated game ended: as stored, else the history's last point; None before the first."""
        if self.last_at is not None:
            return self.last_at
        return self.history[-1][0] if self.history else None

    def idle_periods(self, now: int) -> int:
        """The whole rating periods without a rated game between the last one's end and ``now``."""
        last = self.last_game_at
        return 0 if last is None else max(0, now - last) // RATING_PERIOD_MS

    def at(self, now: int) -> GameRating:
        """The rating as of ``now``: its deviation grown for the periods the player has been away."""
        return replace(self, rating=glicko2.idle(self.rating, self.idle_periods(now), MAX_RD))

    def has_applied(self, game_id: str) -> bool:
        return game_id in self.applied

    def after(
        self, game_id: str, change: SideChange, ended: int, name: str | None, opponent: str | None = None
    ) -> GameRating:
        """The rating once the game ``game_id``, ended at ``ended`` against ``opponent`` (a player id), is applied
        with ``change`` (computed, like this, from the deviation grown up to ``ended``)."""
        earned = self.earned
        if change.earned and opponent:
            earned = (*earned, (ended, opponent))[-EARNED_KEPT:]
        before = self.at(ended).rating
        rd = min(MAX_RD, max(MIN_RD, before.rd + change.rd))
        rating = glicko2.Rating(before.rating + change.rating, rd, change.volatility)
        return replace(
            self,
            name=name if name is not None else self.name,
            rating=rating,
            games=self.games + 1,
            applied=(*self.applied, game_id)[-APPLIED_KEPT:],
            history=(*self.history, (ended, round(rating.rating)))[-HISTORY_KEPT:],
            version=self.version + 1,
            last_at=max(ended, self.last_game_at or ended),
            earned=earned,
        )

    def board_until(self) -> int | None:
        """Until when (epoch ms) the player belongs on the game's rating list, as far as this rating knows:
        while the ``BOARD_GAMES``-th latest rated game and the latest game against the ``BOARD_OPPONENTS``-th
        most recently met established opponent are within the window, and the deviation, growing while the
        player is away, stays under ``BOARD_RD``; None when the player does not belong there after the last game."""
        steady = glicko2.periods_below(self.rating, BOARD_RD)
        last = self.last_game_at
        met = self.opponents_met()
        if steady == 0 or len(self.history) < BOARD_GAMES or last is None or len(met) < BOARD_OPPONENTS:
            return None
        return min(
            self.history[-BOARD_GAMES][0] + BOARD_WINDOW_MS,
            met[BOARD_OPPONENTS - 1] + BOARD_WINDOW_MS,
            last + steady * RATING_PERIOD_MS,
        )

    def opponents_met(self) -> list[int]:
        """When the player last played each established opponent (epoch ms), latest first."""
        latest: dict[str, int] = {}
        for ended, opponent in self.earned:
            latest[opponent] = max(ended, latest.get(opponent, ended))
        return sorted(latest.values(), reverse=True)


def pair_key(first: str, second: str) -> str:
    """The one key of a pair of players, whichever sits on which side."""
    low, high = sorted((first, second))
    return f"pair#{low}#{high}"


def pairing_claimed(games: list[tuple[str, int]], game_id: str, now: int, window_ms: int, limit: int) -> bool | None:
    """Whether ``game_id`` counts among a pair's rated games: True if it is already claimed or there is room in
    the window (``games``, the claims of the window: (game id, started at)), False when the window is full;
    None when it is new and there is room (the caller then writes the claim)."""
    recent = [(claimed, at) for claimed, at in games if at > now - window_ms]
    if any(claimed == game_id for claimed, _ in games):
        return True
    return None if len(recent) < limit else False


def seat_ids(white: str | None, black: str | None) -> dict[Color, str] | None:
    """The two players of a rated game by seat; None if a seat has no player (never rated)."""
    if not white or not black:
        return None
    return {"white": white, "black": black}


# ------------------------------------------------------------------------ all-time wins, draws and losses
#: The ids of a player's last counted games kept in a tally: a game among them is never counted again.
COUNTED_KEPT = 50
#: A counted result, and the tally's field it adds one to.
TALLIED: dict[str, str] = {"win": "wins", "draw": "draws", "loss": "losses"}


@dataclass(frozen=True)
class ResultTally:
    """One player's wins, draws and losses in one game (the games that count: ``counted_results``); ``version``
    0 is a tally not stored yet. Like a rating, it keeps its last counted games, so a settle retried or raced
    counts a game once (``games.ratings.service``), and a recount knows what was counted after its read."""

    player_id: str
    game: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: The last games counted, newest last: (game id, win/draw/loss), ``COUNTED_KEPT`` at most.
    counted: tuple[tuple[str, str], ...] = ()
    version: int = 0

    def has_counted(self, game_id: str) -> bool:
        return any(counted == game_id for counted, _ in self.counted)

    def counts(self) -> dict[str, int]:
        """As the profile answers them: ``{"win": ..., "draw": ..., "loss": ...}``."""
        return {outcome: getattr(self, field) for outcome, field in TALLIED.items()}

    def after(self, game_id: str, outcome: str) -> ResultTally:
        """The tally once the game ``game_id`` is counted with the player's ``outcome`` (win, draw or loss)."""
        counts = self.counts()
        counts[outcome] += 1
        return self._with(counts, (*self.counted, (game_id, outcome)))

    def recounted(self, ended: list[tuple[str, str]]) -> ResultTally:
        """The tally as a recount says: ``ended`` ((game id, outcome), oldest first) is every game of the player
        in this game that had ended when the games were read, and the games this tally counted that are not
        among them ended since, so they are added again (they are among the last kept: they are the newest)."""
        seen = {game_id for game_id, _ in ended}
        since = [(game_id, outcome) for game_id, outcome in self.counted if game_id not in seen and outcome in TALLIED]
        games = [*ended, *since]
        counts = dict.fromkeys(TALLIED, 0)
        for _, outcome in games:
            counts[outcome] += 1
        return self._with(counts, tuple(games))

    def _with(self, counts: dict[str, int], counted: tuple[tuple[str, str], ...]) -> ResultTally:
        return replace(
            self,
            wins=counts["win"],
            draws=counts["draw"],
            losses=counts["loss"],
            counted=counted[-COUNTED_KEPT:],
            version=self.version + 1,
        )


def counted_results(head: GameHead) -> list[tuple[str, str]]:
    """Whose tallies the end of ``head`` changes, and with what: (player id, win/draw/loss) for both players of
    a finished public game between two people, rated or casual (a tournament's too; a seat the computer stood in
    for still counts for its player); none for a game against the computer, a private game or an aborted one."""
    if head.state != "finished" or head.result not in SCORES or is_private(head):
        return []
    ids = seat_ids(*(seat.player_id if seat else None for seat in (head.white, head.black)))
    if ids is None or ids["white"] == ids["black"]:
        return []
    return [
        (ids[color], "draw" if head.result == "draw" else "win" if head.result == color else "loss") for color in COLORS
    ]
