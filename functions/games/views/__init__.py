"""The JSON views of a game (the response models of ``games.models`` validate them), its ETag, and the
cursor of a player's list of games."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from games.domain import COLORS, FORMER_PLAYER, Color, GameHead, other
from games.domain import iso as iso  # the API's time format, a domain value's; views import it from here too
from games.domain.errors import InvalidCursor
from games.domain.head import ORDER_SCALE, RANK_FINISHED, RANK_WAITING, RANK_YOUR_TURN

#: Part of every ETag: bump it when the JSON of a game changes shape, so no client keeps an old copy.
REPRESENTATION = "3"
CPU_PLAYER_ID = "cpu"
CURSOR_MAX_CHARS = 400


LINE_WIDTH = 79  # an export's lines (PGN's export format, and our PDN) stay under 80 characters


def game_view(head: GameHead, now: int | None = None) -> dict[str, Any]:
    """The public state of a game (``GameState``): no token hash, no invite. ``now`` (epoch ms) gives a live
    turn's time left."""
    ongoing = head.result == "ongoing"
    position = head.position() if ongoing else None
    last = head.last_moves[-1] if head.ply and head.last_moves else None
    chess = head.game == "chess"
    return {
        "id": head.id,
        "game": head.game,
        "options": {name: value for name, value in head.options.items() if name != "rated"},
        "rated": head.rated,
        "state": head.state,
        "fen": head.snapshot.fen,
        "ply": head.ply,
        "turn": head.turn,
        "status": {"result": head.result, "reason": head.reason},
        "players": {color: seat_view(head, color) for color in COLORS},
        "deadline": iso(head.deadline) if head.state == "active" else None,
        "turn_ms_left": turn_ms_left(head, now),
        "draw_offer": head.draw_offer,
        "draw_declined": head.draw_declined,
        "legal_moves": position.legal_notations() if position else [],
        "last_move": last.move if last else None,
        # Chess moves by their squares (UCI), so a board can mark them without the rules; null for draughts,
        # whose notation already names the squares.
        "legal_moves_uci": ([move.uci() for move in position.legal_moves()] if position else []) if chess else None,
        "last_move_uci": (last.uci if last else None) if chess else None,
        "cpu_takeover": taken_over(head),
        "rating_change": head.rating_change.shown() if head.rating_change else None,
        "rematch": head.rematch,
        "rematch_of": head.rematch_of,
        "rematch_offer": head.rematch_offer,
        "rematch_declined": head.rematch_declined,
        "review": head.review(),
        "abortable": head.abortable,
        "unopened": sorted(head.unopened),
        "casual_reason": head.casual_reason,
        "reactions": [
            {"seq": item.seq, "by": item.by, "reaction": item.key, "at": iso(item.at)}
            for item in head.reactions
            if other(item.by) not in head.reactions_muted  # type: ignore[arg-type]
        ],
        "reactions_muted": sorted(head.reactions_muted),
        "created_at": iso(head.created),
        "updated_at": iso(head.updated),
    }


def turn_ms_left(head: GameHead, now: int | None) -> int | None:
    """A live turn's milliseconds left at ``now``: a countdown that needs no agreement between clocks."""
    if now is None or head.turn_seconds is None or head.state != "active" or head.deadline is None:
        return None
    return max(0, head.deadline - now)


def page_view(page: Any) -> dict[str, Any]:
    """The moves of a ``MovePage`` as the API shows them (``GameDetail``, ``MovePage``)."""
    return {"moves": page.moves, "moves_from": page.moves_from, "earlier": page.earlier}


def taken_over(head: GameHead) -> dict[str, Any] | None:
    """The seat the computer plays for its absent player (``cpu-takeover``) and the level, or None."""
    for color in COLORS:
        seat = head.seat(color)
        if seat is not None and seat.cpu and seat.player_id:
            return {"seat": color, "level": seat.cpu}
    return None


def seat_view(head: GameHead, color: Color) -> dict[str, Any] | None:
    seat = head.seat(color)
    if seat is None:
        return None
    if seat.is_computer:  # the computer's own seat (a taken-over seat keeps its player)
        return {"player_id": CPU_PLAYER_ID, "name": seat.name, "cpu_level": seat.cpu}
    if seat.player_id == FORMER_PLAYER:  # deleted their data: every page says "a former player" in its language
        return {"player_id": FORMER_PLAYER, "name": None, "former": True}
    return {"player_id": seat.player_id, "name": seat.name}


def summary_view(head: GameHead, color: Color) -> dict[str, Any]:
    return {
        "id": head.id,
        "game": head.game,
        "state": head.state,
        "color": color,
        "your_turn": head.state == "active" and head.turn == color,
        "turn": head.turn,
        "ply": head.ply,
        "status": {"result": head.result, "reason": head.reason},
        "opponent": seat_view(head, other(color)),
        "rated": head.rated,
        "rating_change": head.rating_change.shown() if head.rating_change else None,
        "deadline": iso(head.deadline) if head.state == "active" else None,
        "draw_offer": head.draw_offer,
        "rematch_of": head.rematch_of,
        "updated_at": iso(head.updated),
    }


# ============================================================================================== ETags
def etag_of(seq: int) -> str:
    return f'"{REPRESENTATION}.{seq}"'


def export_etag(seq: int) -> str:
    """The ETag of a game's PGN or PDN: it changes with each event, as the game's does."""
    return f'"export-{REPRESENTATION}.{seq}"'


def seq_from_etag(header: str | None) -> int | None:
    """The seq of the first of our ETags in an ``If-None-Match`` header; -1 for ``*``; None otherwise."""
    if not header:
        return None
    for part in header.split(","):
        tag = part.strip()
        if tag == "*":
            return -1
        tag = tag.removeprefix("W/").strip('"')
        revision, _, seq = tag.partition(".")
        if revision == REPRESENTATION and seq.isdigit() and len(seq) < 10:
            return int(seq)
    return None


# ============================================================================================ cursors
def order_range(status: str) -> tuple[int, int]:
    """The listing orders of active (your move or waiting) or finished games."""
    if status == "finished":
        return RANK_FINISHED * ORDER_SCALE, RANK_WAITING * ORDER_SCALE - 1
    return RANK_WAITING * ORDER_SCALE, (RANK_YOUR_TURN + 1) * ORDER_SCALE - 1


def encode_cursor(data: Any) -> str:
    """An opaque list cursor: ``data`` as compact JSON in unpadded base64url (the lobby's cursors too)."""
    text = json.dumps(data, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, problem: Exception, max_chars: int = CURSOR_MAX_CHARS) -> Any:
    """What ``encode_cursor`` encoded; ``problem`` raised for text no cursor could be (its shape is the caller's)."""
    if len(cursor) > max_chars:
        raise problem
    try:
        return json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise problem from None


def write_cursor(status: str, positions: dict[str, Any]) -> str:
    return encode_cursor({"s": status, **{color[0]: positions[color] for color in COLORS}})


def read_cursor(cursor: str | None, status: str) -> dict[str, Any]:
    """Where each seat's list resumes: None (the start), "end", or [order, game id]. ``InvalidCursor`` if forged."""
    if not cursor:
        return {color: None for color in COLORS}
    low, high = order_range(status)
    problem = InvalidCursor("the cursor is not one this API gave for this list; start again without it")
    data = decode_cursor(cursor, problem)
    if not isinstance(data, dict) or data.get("s") != status:
        raise problem
    positions: dict[str, Any] = {}
    for color in COLORS:
        value = data.get(color[0])
        if value in (None, "end") or (
            isinstance(value, list)
            and len(value) == 2
            and isinstance(value[0], int)
            and not isinstance(value[0], bool)
            and low <= value[0] <= high
            and isinstance(value[1], str)
            and 1 <= len(value[1]) <= 32
        ):
            positions[color] = value
        else:
            raise problem
    return positions
