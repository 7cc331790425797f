"""Who is told what after one game event: pure, from the event and the game after it.

* ``your_move`` to the player now to move, after a move, a join that makes it their move, a draw offer
  (to the player who must answer it) and the computer taking over a seat (to the player whose seat it took);
* ``game_over`` to both seats (mate and every other end by a move, resignation, agreed draw, timeout);
* ``your_move`` to the seeker when someone accepts their open challenge in the lobby (``SeekAccepted``: its
  ``by`` is the acceptor's colour);
* nothing to the computer, nothing to the player who acted, nothing for a "your move" already answered.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.domain import (
    Aborted,
    AnyEvent,
    ComputerTookOver,
    DrawAccepted,
    DrawOffered,
    Joined,
    Moved,
    Resigned,
    SeekAccepted,
    TimeoutClaimed,
)

from notify.domain.games import COLORS, NOT_BY_A_MOVE, GameState, other

#: The events that end a game whatever the board shows.
ENDING_EVENTS = (Resigned, DrawAccepted, TimeoutClaimed, Aborted)


@dataclass(frozen=True)
class Notice:
    player_id: str
    kind: str  # your_move, game_over, reminder (the subscription's kinds)
    message: str  # a key of notify.domain.texts.MESSAGES
    game_id: str
    game: str
    opponent: str | None
    opponent_is_computer: bool
    move: str | None = None
    opponent_id: str | None = None  # who caused it: the recipient may have blocked them (``notify.service.gate``)
    recipient_key: str | None = None  # the recipient's token hash (hex): where their blocks are kept
    tag: str | None = None  # the phone's notification tag when not the game's (``notify.service.gate`` folds by player)
    page: str | None = None  # the page it opens, under the language's folder, when not the game's (a challenge)


def ended_the_game(event: AnyEvent, game: GameState) -> bool:
    """Whether ``event`` is the one that ended the game: an ending event, or the move that finished it (also
    when the game has moved on since, ``game.later``)."""
    return isinstance(event, ENDING_EVENTS) or (isinstance(event, Moved) and _move_ended_the_game(event, game))


def notices(event: AnyEvent, game: GameState) -> list[Notice]:
    by = event.by
    if ended_the_game(event, game):
        return _game_over(event, game)
    if game.state == "finished":
        return []  # a later event ended it: that event says so
    if isinstance(event, Moved) and by is not None:
        if game.later and game.ply > event.ply:
            return []  # answered already
        return _to(game, other(by), "your_move", "moved", move=event.move)
    if isinstance(event, Joined) and by is not None and not game.later and game.turn == other(by):
        return _to(game, other(by), "your_move", "joined")
    if isinstance(event, DrawOffered) and by is not None and game.draw_offer == by:
        return _to(game, other(by), "your_move", "draw_offered")
    if isinstance(event, SeekAccepted) and by is not None:
        return _to(game, other(by), "your_move", "accepted")
    if isinstance(event, ComputerTookOver):
        return _to(game, event.seat, "your_move", "taken_over", even_if_computer_plays=True)
    return []


def _move_ended_the_game(event: Moved, game: GameState) -> bool:
    if game.state != "finished":
        return False
    if not game.later:
        return True  # the state right after this move is finished
    # Later: only a rematch can follow the event that ended a game, and ply counts moves only.
    return game.ply == event.ply and game.reason not in NOT_BY_A_MOVE


def _game_over(event: AnyEvent, game: GameState) -> list[Notice]:
    result = game.result
    if result is None and isinstance(event, Resigned) and event.by is not None:
        result = other(event.by)
    if result is None and isinstance(event, DrawAccepted):
        result = "draw"
    if result not in ("white", "black", "draw"):
        return []
    found: list[Notice] = []
    for color in COLORS:
        message = "drawn" if result == "draw" else ("won" if result == color else "lost")
        found += _to(game, color, "game_over", message, even_if_computer_plays=True)
    return found


def _to(
    game: GameState, color: str, kind: str, message: str, move: str | None = None, even_if_computer_plays: bool = False
) -> list[Notice]:
    """A notice for the player of ``color`` if a person holds that seat and (unless told otherwise) plays it."""
    seat = game.seats[color]
    if seat.player_id is None or (seat.cpu and not even_if_computer_plays):
        return []  # the computer's own seat, or the computer plays it for its player now
    opponent = game.seats[other(color)]
    return [
        Notice(
            player_id=seat.player_id,
            kind=kind,
            message=message,
            game_id=game.game_id,
            game=game.game,
            opponent=opponent.name,
            opponent_is_computer=opponent.player_id is None,
            move=move,
            opponent_id=opponent.player_id,
            recipient_key=seat.key,
        )
    ]
