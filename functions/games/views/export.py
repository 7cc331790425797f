"""A game as PGN (chess) or PDN (draughts): tags, then the moves, replayed through the rules layer. PGN is
written by python-chess (``chess.pgn``); PDN by this module (no library knows Tanzanian draughts).

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

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from games.domain import AnyEvent, Color, ComputerTookOver, Created, GameHead, Moved, Resumed, other, rules_options
from games.views import LINE_WIDTH
from shared_rules import get_game

_PGN_RESULTS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2", "ongoing": "*", "aborted": "*"}
_PDN_RESULTS = {"white": "2-0", "black": "0-2", "draw": "1-1", "ongoing": "*", "aborted": "*"}
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


#: The media types of an export: chess's PGN, then draughts' PDN (the OpenAPI description names both).
EXPORT_MEDIA_TYPES = ("application/x-chess-pgn", "text/plain")


@dataclass(frozen=True)
class Export:
    filename: str
    content_type: str
    text: str


class ExportCache:
    """The last exports this instance made, by game, last event and site: a game's export changes only with a
    new event, so a second download is one read of the head instead of the whole log and a replay."""

    def __init__(self, size: int = 16):
        self.size = size
        self._kept: OrderedDict[tuple[str, int, str], Export] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, seq: int, site_url: str) -> Export | None:
        with self._lock:
            found = self._kept.get((game_id, seq, site_url))
            if found is not None:
                self._kept.move_to_end((game_id, seq, site_url))
            return found

    def keep(self, game_id: str, seq: int, site_url: str, export: Export) -> None:
        with self._lock:
            self._kept[(game_id, seq, site_url)] = export
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


def export_game(head: GameHead, events: list[AnyEvent], site_url: str = "") -> Export:
    rules = get_game(head.game, rules_options(head.options))
    first = events[0]
    start_fen = first.start_fen if isinstance(first, Created) else None
    start = rules.from_fen(start_fen) if start_fen else rules.start()
    moves = [event.move for event in events if isinstance(event, Moved)]
    is_chess = head.game == "chess"
    if not is_chess:  # (python-chess replays a chess game as it writes it)
        rules.replay(moves, start_fen)  # the log must replay; a stored game that does not is a bug, not an export
    results = _PGN_RESULTS if is_chess else _PDN_RESULTS
    result = results[head.result]
    tags = [
        ("Event", "ubao correspondence game"),
        ("Site", f"{site_url.rstrip('/')}/game/?id={head.id}" if site_url else "ubao"),
        ("Date", datetime.fromtimestamp(head.created / 1000, tz=UTC).strftime("%Y.%m.%d")),
        ("Round", "-"),
        ("White", _name(head, "white") or "?"),
        ("Black", _name(head, "black") or "?"),
        ("Result", result),
    ]
    if is_chess:
        if start_fen:
            tags += [("SetUp", "1"), ("FEN", start_fen)]
        tags.append(("TimeControl", f"1/{head.days_per_move * 86400}"))
        tags.append(("Termination", _termination(head)))
    else:
        tags.append(("GameType", _game_type(rules, start)))
        if head.game == "tanzanian":
            tags.append(("Variant", rules.title))
        if start_fen:
            tags.append(("FEN", start_fen))
    tags.append(("PlyCount", str(len(moves))))
    tags = [(name, _escape(value)) for name, value in tags]
    if is_chess:
        from games.views.pgn import pgn_text  # python-chess's PGN writer, imported by the one route that needs it

        text = pgn_text(tags, events, head, _ending_comment(head), _event_comment)
    else:
        text = _pdn(tags, events, head, start, rules.start().turn, result)
    extension, media_type = ("pgn", EXPORT_MEDIA_TYPES[0]) if is_chess else ("pdn", EXPORT_MEDIA_TYPES[1])
    content_type = f"{media_type}; charset=utf-8"
    return Export(filename=f"ubao-{head.game}-{head.id}.{extension}", content_type=content_type, text=text)


def _name(head: GameHead, color: Color) -> str | None:
    seat = head.seat(color)
    return seat.name if seat is not None else None


def _pdn(
    tags: list[tuple[str, str]], events: list[AnyEvent], head: GameHead, start: Any, first: str, result: str
) -> str:
    tokens = _numbered(events, head, start, first)
    ending = _ending_comment(head)
    if ending:
        tokens.append("{" + ending + "}")
    tokens.append(result)
    header = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return header + "\n" + _wrap(tokens) + "\n"


def _numbered(events: list[AnyEvent], head: GameHead, start: Any, first_player: str) -> list[str]:
    """Moves with their numbers and the comments of the events between them: a number before each move of
    the side that starts, ``N...`` when the other side's move opens the record or follows a comment."""
    number = 1
    turn = start.turn
    tokens: list[str] = []
    needs_number = True
    for event in events:
        if not isinstance(event, Moved):
            comment = _event_comment(event, head)
            if comment:
                tokens.append("{" + comment + "}")
                needs_number = True
            continue
        if turn == first_player:
            tokens.append(f"{number}.")
        elif needs_number:
            tokens.append(f"{number}...")
        tokens.append(event.move)
        needs_number = False
        if turn != first_player:
            number += 1
        turn = other(turn)
    return tokens


def _seat_name(head: GameHead, color: Color) -> str:
    name = _name(head, color)
    return f"{color.capitalize()} ({name})" if name else color.capitalize()


def _event_comment(event: AnyEvent, head: GameHead) -> str | None:
    """What an event that is not a move tells in the record (the computer standing in, the player back)."""
    if isinstance(event, ComputerTookOver):
        seat = event.seat
        return f"{_seat_name(head, seat)} ran out of time; the computer (level {event.level}) plays on for {seat}."
    if isinstance(event, Resumed) and event.by is not None:
        return f"{_seat_name(head, event.by)} is back and plays on."
    return None


def _game_type(rules: Any, start: Any) -> str:
    variant = rules.variant
    if variant.numbering == "pdn":
        return str(variant.gametype)
    starts = "W" if rules.start().turn == "white" else "B"
    return f"{variant.gametype},{starts},{variant.size},{variant.size},A0,0"


def _termination(head: GameHead) -> str:
    if head.result in ("ongoing", "aborted"):
        return "abandoned" if head.result == "aborted" else "unterminated"
    if head.reason == "timeout":
        return "time forfeit"
    return "normal"


def _ending_comment(head: GameHead) -> str | None:
    reason, result = head.reason, head.result
    if result == "ongoing" or not reason:
        return None
    if result == "aborted":
        return "Both players left; no result." if reason == "abandoned" else "Aborted before two moves a side."
    if reason == "resignation" and result != "draw":
        return f"{other(result).capitalize()} resigns."
    if reason == "agreement":
        return "Draw agreed."
    if reason == "timeout":
        loser = head.turn
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
