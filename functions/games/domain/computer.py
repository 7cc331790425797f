"""The computer opponent in a game: its reply when it is to move, and the level of a player's own moves."""

from __future__ import annotations

import hashlib
from typing import Any

from games.domain import AnyEvent, Color, ComputerTookOver, Created, GameHead, Moved, Resumed, rules_for
from shared_rules import Position
from shared_rules.errors import GameOver
from shared_rules.search.levels import ESTIMATE_MOVES, choose_move, estimate_level

# The log a takeover reads: the last events, enough to hold the player's last scored moves (``ESTIMATE_MOVES``
# of theirs, so about twice as many plies, with room for offers, takeovers and resumes between them). A
# takeover at ply 3,000 then reads and replays as much as one at ply 100.
LEVEL_WINDOW = 4 * max(ESTIMATE_MOVES.values())


def cpu_name(level: int) -> str:
    return f"Computer (level {level})"


def cpu_seed(game_id: str, ply: int) -> int:
    """The computer's randomness for one move: the same game and ply always give the same reply, so a
    retried request or two racing instances compute the same event."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{ply}".encode()).digest()[:8], "big")


def cpu_reply(head: GameHead) -> Moved | None:
    """The computer's move when it is the computer's turn in an active game, else None."""
    level = head.computer_level(head.turn) if head.state == "active" else None
    if not level:
        return None
    position = head.position()
    try:
        choice = choose_move(position.game, position, int(level), seed=cpu_seed(head.id, head.ply))
    except GameOver:
        return None
    return Moved(by=head.turn, move=choice.notation, ply=head.ply + 1, fen=position.play(choice.move).fen())


def level_of_player(head: GameHead, events: list[AnyEvent], color: Color) -> int:
    """The level of the moves ``color``'s player made in person (one pass over the log, only for a takeover)."""
    return estimate_level(rules_for(head.game, head.options), moves_in_person(head, events, color))


def moves_in_person(head: GameHead, events: list[AnyEvent], color: Color) -> list[tuple[Position[Any], Any]]:
    """The (position, move) pairs of the moves ``color``'s player made, not the computer standing in for them.

    ``events`` is the whole log or its last events (``LEVEL_WINDOW``). A window that starts after the game's
    creation starts from the position after its first move (each ``Moved`` keeps it), and a ``Resumed`` with
    no takeover before it in the window means every move before it was the computer's.
    """
    rules = rules_for(head.game, head.options)
    first = events[0] if events else None
    position: Position[Any] | None = None
    if isinstance(first, Created):
        position = rules.from_fen(first.start_fen) if first.start_fen else rules.start()
    stand_in = False
    pairs: list[tuple[Position[Any], Any]] = []
    for event in events:
        if isinstance(event, ComputerTookOver) and event.seat == color:
            stand_in = True
        elif isinstance(event, Resumed) and event.by == color:
            if not stand_in:
                pairs.clear()  # the window began while the computer stood in for this player
            stand_in = False
        elif isinstance(event, Moved):
            if position is None:  # the window's first move: only the position after it is known
                position = rules.from_fen(event.fen)
                continue
            move = position.parse_move(event.move)
            if event.by == color and not stand_in:
                pairs.append((position, move))
            position = position.play(move)
    return pairs
