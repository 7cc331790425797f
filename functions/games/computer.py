"""The computer opponent in a game: its reply when it is to move, and the level of a player's own moves."""

from __future__ import annotations

import hashlib
from typing import Any

from games.domain import AnyEvent, Color, ComputerTookOver, Created, GameHead, Moved, Resumed, rules_for
from shared_rules import Position
from shared_rules.errors import GameOver
from shared_rules.search.levels import choose_move, estimate_level


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
    """The (position, move) pairs of the moves ``color``'s player made, not the computer standing in for them."""
    rules = rules_for(head.game, head.options)
    first = events[0] if events else None
    start = first.start_fen if isinstance(first, Created) else None
    position = rules.from_fen(start) if start else rules.start()
    stand_in = False
    pairs: list[tuple[Position[Any], Any]] = []
    for event in events:
        if isinstance(event, ComputerTookOver) and event.seat == color:
            stand_in = True
        elif isinstance(event, Resumed) and event.by == color:
            stand_in = False
        elif isinstance(event, Moved):
            move = position.parse_move(event.move)
            if event.by == color and not stand_in:
                pairs.append((position, move))
            position = position.play(move)
    return pairs
