"""The checks an action makes against the game before it writes anything: each refusal is a plain domain
exception (``games.domain.errors``) carrying what the client needs to catch up."""

from __future__ import annotations

from games.domain import Color, GameHead, iso, rules_for
from games.domain.errors import Conflict, Forbidden
from shared_rules import RulesError


def seat_or_refuse(head: GameHead, token_hash: str) -> Color:
    color = head.seat_of(token_hash)
    if color is None:
        raise Forbidden("you hold no seat in this game", code="not_a_player")
    return color


def refuse_if_computer_plays(head: GameHead, color: Color) -> None:
    if head.computer_level(color):
        raise Conflict(
            "the computer is playing your seat since your time ran out; resume the game to play again",
            code="computer_plays_your_seat",
            game=head,
        )


def refuse_if_turn_time_over(head: GameHead, color: Color, now: int) -> None:
    """On a live table, a move after its turn's deadline is refused, whether or not the computer has played on
    for the player yet: no client can stretch a turn, and the seat comes back only by ``resume``."""
    if head.turn_seconds is None:
        return
    late = head.turn == color and head.deadline is not None and now > head.deadline
    if late or head.computer_level(color):
        raise Conflict(
            f"the {head.turn_seconds} seconds of your turn ran out, so the computer plays on for you; "
            "resume the game to take your seat back",
            code="turn_time_over",
            game=head,
        )


def refuse_unless_active(head: GameHead) -> None:
    if head.state == "waiting":
        raise Conflict("the game starts when your opponent joins", code="game_not_started", game=head)
    if head.state == "finished":
        raise Conflict("the game is over", code="game_over", reason="game_over", game=head)


def refuse_unless_opponent_overdue(head: GameHead, color: Color, now: int, why: str) -> None:
    """Refuse (409) unless the opponent is to move and past their deadline."""
    if head.turn == color:
        raise Conflict(f"it is your move: {why}", code="your_move", game=head)
    if head.deadline is not None and now <= head.deadline:
        raise Conflict(f"your opponent has until {iso(head.deadline)} to move", code="deadline_not_passed", game=head)


def already_played(head: GameHead, color: Color, text: str, ply: int) -> bool:
    """Whether ``color`` played ``text`` at ``ply``: known for the last moves (the head keeps them), however
    the retry spells the move; an older retry is answered with a 409 and the game, which shows the move."""
    for played in head.last_moves:
        if played.ply != ply or played.by != color:
            continue
        if text.strip() == played.move:
            return True
        try:
            before = rules_for(head.game, head.options).from_fen(played.before)
            return before.notation(before.parse_move(text)) == played.move
        except RulesError:
            return False
    return False
