"""A game as PGN (chess) or PDN (draughts): tags, then the moves, replayed through the rules layer.

* PGN: the Seven Tag Roster (Event, Site, Date, Round, White, Black, Result), ``SetUp``/``FEN`` when the
  game did not start from the usual position, ``TimeControl`` (one move per N seconds, PGN's form for
  correspondence) and ``Termination``.
* PDN: the same roster with PDN's results (``2-0``, ``0-2``, ``1-1``), ``GameType`` (21 for English
  draughts; for Tanzanian draughts the rules layer's private number in PDN's long form, which names the
  board, the side that starts and the notation: ``N,W,8,8,A0,0``) and ``FEN`` for a set-up start.
* Endings the moves do not show (resignation, agreement, time) are told in a comment before the result.
* The computer taking over an absent player's seat, and the player coming back, are comments between the
  moves, where they happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from games.domain import other, rules_options
from shared_rules import get_game

LINE_WIDTH = 79  # PGN's export format keeps lines under 80 characters

_PGN_RESULTS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2", "ongoing": "*"}
_PDN_RESULTS = {"white": "2-0", "black": "0-2", "draw": "1-1", "ongoing": "*"}
_REASONS = {
    "checkmate": "checkmate",
    "stalemate": "stalemate",
    "threefold_repetition": "the same position for the third time",
    "fifty_moves": "fifty moves each without a capture or a pawn move",
    "insufficient_material": "neither side can mate",
    "no_pieces": "no pieces left",
    "no_moves": "no legal move",
    "forty_moves": "forty moves without a capture or a man moving",
    "move_limit": "the agreed move limit",
    "three_kings_countdown": "three kings could not take the lone king in twelve moves",
    "thirty_moves": "thirty moves each with only kings and no capture",
}


@dataclass(frozen=True)
class Export:
    filename: str
    content_type: str
    text: str


def export_game(head: dict[str, Any], events: list[dict[str, Any]], site_url: str = "") -> Export:
    rules = get_game(head["game"], rules_options(head["options"]))
    start_fen = events[0].get("start_fen")
    start = rules.from_fen(start_fen) if start_fen else rules.start()
    moves = [event["move"] for event in events if event["kind"] == "move"]
    rules.replay(moves, start_fen)  # the log must replay; a stored game that does not is a bug, not an export
    chess = head["game"] == "chess"
    results = _PGN_RESULTS if chess else _PDN_RESULTS
    result = results[head["result"]]
    tags = [
        ("Event", "ubao correspondence game"),
        ("Site", f"{site_url.rstrip('/')}/game/?id={head['id']}" if site_url else "ubao"),
        ("Date", datetime.fromtimestamp(head["created"] / 1000, tz=UTC).strftime("%Y.%m.%d")),
        ("Round", "-"),
        ("White", head.get("white_name") or "?"),
        ("Black", head.get("black_name") or "?"),
        ("Result", result),
    ]
    if chess:
        if start_fen:
            tags += [("SetUp", "1"), ("FEN", start_fen)]
        tags.append(("TimeControl", f"1/{head['options']['days_per_move'] * 86400}"))
        tags.append(("Termination", _termination(head)))
    else:
        tags.append(("GameType", _game_type(rules, start)))
        if head["game"] == "tanzanian":
            tags.append(("Variant", rules.title))
        if start_fen:
            tags.append(("FEN", start_fen))
    tags.append(("PlyCount", str(len(moves))))
    tokens = _numbered(events, head, start, rules.start().turn, chess)
    ending = _ending_comment(head)
    if ending:
        tokens.append("{" + ending + "}")
    tokens.append(result)
    header = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in tags)
    text = header + "\n" + _wrap(tokens) + "\n"
    extension, content_type = (
        ("pgn", "application/x-chess-pgn; charset=utf-8") if chess else ("pdn", "text/plain; charset=utf-8")
    )
    return Export(filename=f"ubao-{head['game']}-{head['id']}.{extension}", content_type=content_type, text=text)


def _numbered(
    events: list[dict[str, Any]], head: dict[str, Any], start: Any, first_player: str, chess: bool
) -> list[str]:
    """Moves with their numbers and the comments of the events between them: a number before each move of
    the side that starts, ``N...`` when the other side's move opens the record or follows a comment."""
    number = int(start.fen().split()[5]) if chess else 1
    turn = start.turn
    tokens: list[str] = []
    needs_number = True
    for event in events:
        if event["kind"] != "move":
            comment = _event_comment(event, head)
            if comment:
                tokens.append("{" + comment + "}")
                needs_number = True
            continue
        if turn == first_player:
            tokens.append(f"{number}.")
        elif needs_number:
            tokens.append(f"{number}...")
        tokens.append(event["move"])
        needs_number = False
        if turn != first_player:
            number += 1
        turn = other(turn)
    return tokens


def _seat_name(head: dict[str, Any], color: str) -> str:
    name = head.get(f"{color}_name")
    return f"{color.capitalize()} ({name})" if name else color.capitalize()


def _event_comment(event: dict[str, Any], head: dict[str, Any]) -> str | None:
    if event["kind"] == "cpu_takeover":
        seat = event["seat"]
        return f"{_seat_name(head, seat)} ran out of time; the computer (level {event['level']}) plays on for {seat}."
    if event["kind"] == "resume":
        return f"{_seat_name(head, event['by'])} is back and plays on."
    return None


def _game_type(rules: Any, start: Any) -> str:
    variant = rules.variant
    if variant.numbering == "pdn":
        return str(variant.gametype)
    starts = "W" if rules.start().turn == "white" else "B"
    return f"{variant.gametype},{starts},{variant.size},{variant.size},A0,0"


def _termination(head: dict[str, Any]) -> str:
    if head["result"] == "ongoing":
        return "unterminated"
    if head.get("reason") == "timeout":
        return "time forfeit"
    return "normal"


def _ending_comment(head: dict[str, Any]) -> str | None:
    reason, result = head.get("reason"), head["result"]
    if result == "ongoing" or not reason:
        return None
    if reason == "resignation":
        return f"{other(result).capitalize()} resigns."
    if reason == "agreement":
        return "Draw agreed."
    if reason == "timeout":
        loser = head["turn"]
        if result == "draw":
            return f"{loser.capitalize()} ran out of time, but {other(loser)} could not have won: draw."
        return f"{loser.capitalize()} ran out of time."
    described = _REASONS.get(reason, reason.replace("_", " "))
    return f"Draw: {described}." if result == "draw" else f"{result.capitalize()} wins: {described}."


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(tokens: list[str]) -> str:
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > LINE_WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return "\n".join(lines)
