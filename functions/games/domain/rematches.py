"""Rematches by consent: a player of a finished game offers one; the opponent accepts (the new game is made
then, and only then) or declines; the offerer may withdraw. Against the computer there is no one to ask:
the offer is the agreement.

``rematch_event`` decides, against the old game's head, what one request does (pure); ``rematch_created``
is the first event of the new game, the same whoever makes it (the ids and the time come from the old game).
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Literal

from games.domain import (
    COLORS,
    GAME_ID_BYTES,
    AnyEvent,
    Color,
    Created,
    GameHead,
    RematchDeclined,
    Rematched,
    RematchOffered,
    RematchWithdrawn,
    Seat,
    other,
)
from games.domain.errors import Conflict

RematchAction = Literal["offer", "accept", "decline", "withdraw"]
#: The events that bring the two players together again: each checks that neither blocked the other.
MEETING_EVENTS = (RematchOffered, Rematched)


def rematch_event(head: GameHead, color: Color, action: RematchAction) -> AnyEvent | None:
    """What ``action`` by the player on ``color`` does: an event, None for a retry of what is done, or
    ``Conflict`` when the game is not in a state that allows it."""
    if head.state != "finished":
        raise Conflict("a rematch can start once this game is over", code="game_not_finished", game=head)
    offer = head.rematch_offer
    if head.rematch is not None:
        if action in ("offer", "accept"):
            return None  # agreed already: the answer is the new game
        raise Conflict("the rematch is agreed already", code="no_rematch_offer", game=head)
    if action == "offer" and not _person_on(head, other(color)):
        return _agreed(color)  # the computer always agrees
    if action == "offer":
        if offer == color:
            return None
        return _agreed(color) if offer == other(color) else RematchOffered(by=color)
    if action == "withdraw":
        return RematchWithdrawn(by=color) if offer == color else None
    if offer != other(color):
        if action == "decline" and head.rematch_declined == other(color):
            return None  # declined already
        raise Conflict("your opponent has not offered a rematch", code="no_rematch_offer", game=head)
    return _agreed(color) if action == "accept" else RematchDeclined(by=color)


def _agreed(color: Color) -> Rematched:
    return Rematched(by=color, game_id=secrets.token_urlsafe(GAME_ID_BYTES))


def _person_on(head: GameHead, color: Color) -> bool:
    seat = head.seat(color)
    return seat is not None and seat.player_id is not None


def rematch_created(old: GameHead, start_fen: str | None) -> Created:
    """The first event of ``old``'s rematch: the same options, the seats swapped unless ``swap_colors`` is false."""
    assert old.rematch is not None
    swap = bool(old.options.get("swap_colors", True))
    seats: dict[Color, Seat | None] = {}
    for color in COLORS:
        source = old.seat(other(color) if swap else color)
        # The computer's own seat stays the computer's; a seat it only played on for its player does not.
        seats[color] = None if source is None else replace(source, cpu=source.cpu if source.is_computer else None)
    return Created(
        at=old.updated,  # the rematch event's time: the same new game whoever creates it
        game_id=old.rematch,
        game=old.game,
        options=old.options,
        start_fen=start_fen,
        white=seats["white"],
        black=seats["black"],
        rematch_of=old.id,
        max_plies=old.max_plies,
    )
