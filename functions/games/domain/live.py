"""Live tables: a turn of 30 or 60 seconds on the server's clock (the option ``turn_seconds``).

The head holds the turn's deadline, set by the fold from the time the server gave the event that began the
turn, so no client can stretch it. A move that arrives after it is refused (``turn_time_over``). Once it has
passed, the computer plays on for the absent player (``ComputerTookOver``, then its move at once), from the
first of: a request that reads the game (the other player's page polls it every second), the reminder sweep,
or a claim by the opponent. When the other seat is the computer's own (a game against it), the game ends on time
as a claimed timeout would. Fair play (docs/games.md): a rated table's turn that runs out before each side has
made two moves aborts the game (the computer never plays the first moves of someone who never came), and when the other seat
is a player the computer already stands in for (both players left), the game ends at once with no result and no
rating change, so the one who left first does not win.

A live table starts only once both players have opened it (``Opened``: the page's ``POST /v1/games/{id}/open``,
or a first move): until then the deadline is the time it waits for them (one turn), the first turn's clock starts
when the last of them opens it, and a table still waiting when that time runs out is aborted (``no_show``, rated
or not), lost in a tournament by the side that never came, void when neither did.

The event is appended like any other, under the game's lock (the conditional append at ``seq + 1``), so of any
number of readers who see the turn run out at once, exactly one writes the takeover and one the computer's move.
"""

from __future__ import annotations

from collections.abc import Callable

from games.domain import (
    ABORT_PLIES,
    COLORS,
    Aborted,
    AnyEvent,
    Color,
    ComputerTookOver,
    GameHead,
    Opened,
    TimeoutClaimed,
    other,
)

LevelOf = Callable[[GameHead, Color], int]


def timeout_event(head: GameHead, now: int, level_of: LevelOf) -> AnyEvent | None:
    """What the server's clock does to a live game at ``now``: nothing while the turn lasts, else the computer
    playing on for the side to move (at the level of that player's own moves), or the game lost on time."""
    if not head.turn_over(now):
        return None
    absent, present = head.turn, other(head.turn)
    if head.unopened:  # a player never opened the table: it never started (the computer plays no one's game)
        return no_show(head, now)
    if head.rated and head.ply < ABORT_PLIES:  # a casual table plays on: nothing rides on it
        return Aborted(by=present, at=now, reason="no_show")
    stand_in = head.seat(present)
    if stand_in is not None and stand_in.cpu and stand_in.player_id:
        return Aborted(by=present, at=now, reason="abandoned")  # both seats the computer's: nobody played
    if head.computer_level(present):
        return TimeoutClaimed(by=present, at=now)
    return ComputerTookOver(by=present, seat=absent, level=level_of(head, absent), at=now)


def no_show(head: GameHead, now: int) -> Aborted:
    """The abort of a live table a player never opened: ``by`` is the side that came (None when neither did)."""
    came = [color for color in COLORS if color not in head.unopened and not head.computer_level(color)]
    by: Color | None = came[0] if len(came) == 1 else None
    return Aborted(by=by, at=now, reason="no_show")


def opened(head: GameHead, color: Color) -> Opened | None:
    """The player on ``color`` opened the table: an event only while the table waits for them (else a retry,
    a correspondence game or a finished one: nothing to write)."""
    return Opened(by=color) if color in head.unopened and head.state == "active" else None
