"""The games function's parts as the tournaments' hooks: a league's games are made by the games' own write
protocol (``GameLog.create`` with the game's fixed id: made once however often a start is retried), and a
finished game is read back as the ``GameResult`` a tournament scores."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.domain import (
    Aborted,
    ComputerTookOver,
    Created,
    GameHead,
    Moved,
    Resumed,
    Seat,
    TimeoutClaimed,
    new_game_options,
    other,
)
from games.domain.events import AnyEvent
from games.domain.fair_play import early_end
from games.repository import GameRepository
from games.service.protocol import GameLog, RatingHooks

from tournaments.domain import Entry, GameResult


class TournamentGames:
    """``GameMaker`` and ``GameResults`` over the games table."""

    def __init__(self, log: GameLog, store: GameRepository, ratings: RatingHooks | None = None):
        self.log = log
        self.store = store
        self.ratings = ratings  # a rated game ended here (a round's deadline) is settled as the games function does

    def make(
        self, game_id: str, game: str, options: Mapping[str, Any], rated: bool, white: Entry, black: Entry, at: int
    ) -> None:
        event = Created(
            at=at,
            game_id=game_id,
            game=game,
            options=new_game_options(game, options, rated),
            white=_seat(white),
            black=_seat(black),
            max_plies=self.log.max_plies,
        )
        self.log.create(event)

    def time_out(self, game_id: str, at: int) -> GameResult | None:
        """The side to move loses on time, as if the waiting side claimed it (the games' own rule: before two
        moves a side a rated game is aborted, ``no_show``, lost by the side that never came)."""

        def decide(head: GameHead) -> AnyEvent | None:
            if head.state == "finished":
                return None
            return early_end(head, TimeoutClaimed(by=other(head.turn), at=at))

        log = self.log
        if self.ratings is not None:
            log = GameLog(self.store, clock=self.log.clock, max_plies=self.log.max_plies, ratings=self.ratings)
        log.act(game_id, decide)
        return self.result(game_id)

    def result(self, game_id: str) -> GameResult | None:
        """The finished game as a tournament counts it (None while it goes on): one Query of its log."""
        head, events = self.store.load(game_id)
        if head is None or head.state != "finished" or head.white is None or head.black is None:
            return None
        return result_of(head, events)


def result_of(head: GameHead, events: list[AnyEvent]) -> GameResult:
    white, black = head.white, head.black
    assert white is not None and black is not None and white.player_id and black.player_id
    moves = {"white": 0, "black": 0}
    by_computer = {"white": 0, "black": 0}
    standing_in: set[str] = set()
    for event in events:
        if isinstance(event, ComputerTookOver):
            standing_in.add(event.seat)
        elif isinstance(event, Resumed) and event.by is not None:
            standing_in.discard(event.by)
        elif isinstance(event, Moved) and event.by is not None:
            moves[event.by] += 1
            by_computer[event.by] += event.by in standing_in
    winner = head.result if head.result in ("white", "black") else None
    abort = next((event for event in reversed(events) if isinstance(event, Aborted)), None)
    aborter = _aborter(abort) if head.aborted and abort is not None else None
    if aborter is not None:
        winner = "black" if aborter == "white" else "white"
    return GameResult(
        game_id=head.id,
        white=white.player_id,
        black=black.player_id,
        winner=winner,
        at=head.updated,
        plies=head.ply,
        on_time=head.reason == "timeout" and winner is not None,
        computer_white=2 * by_computer["white"] > moves["white"],
        computer_black=2 * by_computer["black"] > moves["black"],
        void=head.aborted and aborter is None,
    )


def _aborter(abort: Aborted) -> str | None:
    """Who loses an aborted tournament game (a tournament game cannot be called off): the player who aborted it,
    or the side that never came when its first turns ran out (``no_show``: ``by`` is the side that came); None
    when both players left (``abandoned``: void)."""
    if abort.reason == "abandoned" or abort.by is None:
        return None
    if abort.reason == "no_show":
        return "black" if abort.by == "white" else "white"
    return abort.by


def _seat(entry: Entry) -> Seat:
    return Seat(entry.player_id, bytes.fromhex(entry.key), entry.name)
