"""Correspondence games: seats, moves, draw offers, deadlines, resignations, timeouts and rematches.

A game is an append-only **event log** (create, join, move, draw offer/accept/decline, resign, timeout
claim, rematch, the computer taking over an absent player's seat and the player resuming it) and a **head**: the fold of the log, kept so that a request reads one small item. Every
change follows one protocol (docs/games.md explains why it is safe):

1. read the head (one read);
2. decide, against the head, what event the request makes, or refuse it (nothing written);
3. append the event at ``seq + 1`` with a condition that no event has that number: the game's lock;
4. store the new head, with a condition that only lets the head move forward.

A request that loses step 3 to another reads the events it missed, folds them and decides again (a
stale ``ply`` is then a 409, a retried move a 200). A crash between 3 and 4 loses nothing: whoever reads
the game next folds the missing events into the head.

The position at the head is rebuilt without reading the log: the head keeps the position before the
last irreversible move (``anchor_fen``) and the moves played since, each as its index in the rules layer's
list of legal moves (one byte). Every draw rule of the three games (repetition, the fifty-move and
forty-move counts, the Tanzanian counts) looks back only to the last irreversible move, so the replay
from the anchor has the same status and legal moves as a replay of the whole game
(tests/games/test_anchor.py checks this on random games). Time is read from an injected clock.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aws_lambda_powertools import Logger
from common import metrics
from common.players import Player, token_matches
from common.ratelimit import charge_computer
from common.store import GameStore, StoreUnavailable

from games.errors import Conflict, Forbidden, GameNotFound, IllegalMove, InvalidCursor, InvalidGameOption, NotModified
from shared_rules import InvalidMove, Position, RulesError, get_game
from shared_rules.errors import GameOver, InvalidFen
from shared_rules.search.levels import choose_move, estimate_level

logger = Logger()

COLORS = ("white", "black")
DAY_MS = 86_400_000
DEFAULT_DAYS_PER_MOVE = 3
MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE = 1, 14
GAME_OPTIONS = ("days_per_move", "swap_colors")  # the site's options; every other option is the rules layer's
GAME_ID_BYTES = 9  # 72 random bits, 12 URL-safe characters
INVITE_BYTES = 16  # 128 bits
#: The head keeps at most this many bytes of move indexes since the anchor. Chess needs at most 101
#: (the fifty-move rule ends a game 100 reversible plies after the last capture or pawn move) and English
#: draughts 41 (the forty-move rule); only Tanzanian king manoeuvres can go on longer, and then the
#: position is rebuilt from the log instead (one more read, for those moves only).
RECENT_MAX_BYTES = 128
#: Part of every ETag: bump it when the JSON of a game changes shape, so no client keeps an old copy.
REPRESENTATION = "1"
#: Listing order: a game's rank for one seat, times ORDER_SCALE, plus its last activity (epoch ms).
ORDER_SCALE = 10**13
RANK_FINISHED, RANK_WAITING, RANK_YOUR_TURN = 1, 2, 3
LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX = 20, 50
MAX_ROUNDS = 5  # attempts to append before giving up under extreme contention (503, the client retries)
CPU_LEVELS = (1, 2, 3, 4, 5)


def other(color: str) -> str:
    return "black" if color == "white" else "white"


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def secret_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode("utf-8")).digest()


# ============================================================================ the position at the head
class CacheMiss(Exception):
    """The head cannot rebuild its position (overflow, or a rules layer whose move order changed): use the log."""


def rules_options(options: dict) -> dict:
    return {name: value for name, value in options.items() if name not in GAME_OPTIONS}


def rules_for(head: dict, anchor_ply: int = 0):
    """The rules of the head's game. ``move_limit`` counts plies from the position a replay starts at, so a
    replay that starts at the anchor gets the limit less the plies before it."""
    options = rules_options(head["options"])
    if anchor_ply and options.get("move_limit"):
        options["move_limit"] = options["move_limit"] - anchor_ply
    return get_game(head["game"], options)


def _chain(check: bytes | None, notation: str) -> bytes:
    """A running checksum of the moves since the anchor: a rebuild that reads them differently is caught."""
    return hashlib.sha256((check or b"") + b"|" + notation.encode("utf-8")).digest()[:8]


def _encode_index(index: int) -> bytes:
    return bytes([index]) if index < 255 else bytes([255]) + index.to_bytes(2, "big")


def _decode_indexes(data: bytes | None):
    data = data or b""
    position = 0
    while position < len(data):
        if data[position] < 255:
            yield data[position]
            position += 1
        else:
            yield int.from_bytes(data[position + 1 : position + 3], "big")
            position += 3


def irreversible(game_name: str, before_fen: str, after_fen: str) -> bool:
    """Whether no position before this move can come back after it (so the draw rules forget them).

    Chess: a capture or a pawn move (the FEN's halfmove clock is back at 0). Draughts: a capture or a man's
    move (the count of pieces or the set of men changed).
    """
    if game_name == "chess":
        return after_fen.split()[4] == "0"
    return _men_and_count(before_fen) != _men_and_count(after_fen)


def _men_and_count(fen: str) -> tuple[frozenset, int]:
    men, count = set(), 0
    for side in fen.split(":")[1:]:
        tokens = [token for token in side[1:].split(",") if token]
        count += len(tokens)
        men.update(side[:1] + token for token in tokens if not token.upper().startswith("K"))
    return frozenset(men), count


@dataclass
class Record:
    """A game's head and, once built, the position it describes and the moves since its anchor."""

    head: dict
    position: Position | None = None
    recent_moves: list[str] | None = None
    stored_seq: int = 0  # the seq of the head as read from the store (0: none stored)

    @property
    def seq(self) -> int:
        return self.head["seq"]

    def ensure_position(self) -> Position:
        if self.position is None:
            self.position, self.recent_moves = rebuild(self.head)
        return self.position

    def seat_of(self, token_hash: str | None) -> str | None:
        """The seat whose token hash matches, compared in constant time (both seats are always compared)."""
        if not token_hash:
            return None
        found = None
        for color in COLORS:
            if token_matches(token_hash, self.head.get(f"{color}_key")) and found is None:
                found = color
        return found


def rebuild(head: dict) -> tuple[Position, list[str]]:
    """The position at the head, replayed from its anchor; ``CacheMiss`` when the head cannot tell."""
    if head.get("overflow"):
        raise CacheMiss("the moves since the anchor are only in the log")
    game = rules_for(head, head.get("anchor_ply", 0))
    anchor = head.get("anchor_fen")
    position = game.from_fen(anchor) if anchor else game.start()
    notations: list[str] = []
    check = None
    for index in _decode_indexes(head.get("recent")):
        legal = position.legal_moves()
        if index >= len(legal):
            raise CacheMiss("a move index is out of range")
        text = position.notation(legal[index])
        check = _chain(check, text)
        notations.append(text)
        position = position.play(legal[index])
    if check != head.get("recent_check"):
        raise CacheMiss("the moves since the anchor do not match their checksum")
    return position, notations


# ================================================================================== folding the log
def fold(record: Record | None, event: dict) -> Record:
    """The record after one event. Pure: the same log always folds to the same head."""
    kind = event["kind"]
    if kind == "create":
        if record is not None:
            raise ValueError("a game is created once")
        new = _fold_create(event)
    else:
        if record is None:
            raise ValueError(f"{kind} before the game was created")
        if event["seq"] != record.seq + 1:
            raise ValueError(f"event {event['seq']} does not follow {record.seq}")
        new = _FOLDS[kind](record, event)
    head = new.head
    head["seq"] = event["seq"]
    head["updated"] = event["at"]
    if head["state"] == "finished":
        for name in ("deadline", "draw_offer", "invite_key"):
            head[name] = None
    for color in COLORS:
        head[f"{color}_order"] = _order(head, color) if head.get(f"{color}_id") else None
    return new


def _order(head: dict, color: str) -> int:
    if head["state"] == "finished":
        rank = RANK_FINISHED
    elif head["state"] == "active" and head["turn"] == color:
        rank = RANK_YOUR_TURN
    else:
        rank = RANK_WAITING
    return rank * ORDER_SCALE + head["updated"]


def _fold_create(event: dict) -> Record:
    head = {
        "id": event["game_id"],
        "game": event["game"],
        "options": dict(event["options"]),
        "ply": 0,
        "result": "ongoing",
        "reason": None,
        "anchor_fen": event.get("start_fen"),
        "anchor_ply": 0,
        "recent": None,
        "recent_check": None,
        "created": event["at"],
        "invite_key": event.get("invite_key"),
        "rematch_of": event.get("rematch_of"),
    }
    seats = event.get("seats") or {}
    for color in COLORS:
        seat = seats.get(color)
        if seat:
            head.update({f"{color}_id": seat["id"], f"{color}_key": seat["key"], f"{color}_name": seat.get("name")})
            head[f"{color}_cpu"] = seat.get("cpu")  # the computer's level; its seat has no id and no token
    full = all(seats.get(color) for color in COLORS)
    head["state"] = "active" if full else "waiting"
    head["deadline"] = event["at"] + head["options"]["days_per_move"] * DAY_MS if full else None
    game = rules_for(head)
    position = game.from_fen(head["anchor_fen"]) if head["anchor_fen"] else game.start()
    head["turn"] = position.turn
    return Record(head=head, position=position, recent_moves=[])


def _fold_join(record: Record, event: dict) -> Record:
    head = dict(record.head)
    color, seat = event["by"], event["seat"]
    head.update({f"{color}_id": seat["id"], f"{color}_key": seat["key"], f"{color}_name": seat.get("name")})
    head["state"] = "active"
    head["invite_key"] = None
    head["deadline"] = event["at"] + head["options"]["days_per_move"] * DAY_MS
    return Record(head=head, position=record.position, recent_moves=record.recent_moves)


def _fold_move(record: Record, event: dict) -> Record:
    head = dict(record.head)
    before = record.ensure_position()
    move = before.parse_move(event["move"])
    text = before.notation(move)
    index = before.legal_moves().index(move)
    after = before.play(move)
    if irreversible(head["game"], before.fen(), after.fen()):
        start = rules_for(head).start().fen()
        head["anchor_fen"] = None if before.fen() == start else before.fen()
        head["anchor_ply"] = head["ply"]
        head["overflow"] = None
        head["recent"], head["recent_check"] = _encode_index(index), _chain(None, text)
        recent_moves = [text]
    else:
        recent_moves = [*(record.recent_moves or ()), text]
        if not head.get("overflow"):
            recent = (head.get("recent") or b"") + _encode_index(index)
            if len(recent) > RECENT_MAX_BYTES:
                head.update(overflow=True, recent=None, recent_check=None)
            else:
                head["recent"], head["recent_check"] = recent, _chain(head.get("recent_check"), text)
    head["ply"] += 1
    head["turn"] = after.turn
    if head.get("draw_offer") and head["draw_offer"] != event["by"]:
        head["draw_offer"] = None  # moving declines the opponent's offer
    status = after.status()
    if status.is_over:
        head.update(state="finished", result=status.result, reason=status.reason)
    else:
        head["deadline"] = event["at"] + head["options"]["days_per_move"] * DAY_MS
    return Record(head=head, position=after, recent_moves=recent_moves)


def _fold_offer(record: Record, event: dict) -> Record:
    return _changed(record, draw_offer=event["by"])


def _fold_decline(record: Record, event: dict) -> Record:
    return _changed(record, draw_offer=None)


def _fold_accept(record: Record, event: dict) -> Record:
    return _changed(record, state="finished", result="draw", reason="agreement")


def _fold_resign(record: Record, event: dict) -> Record:
    return _changed(record, state="finished", result=other(event["by"]), reason="resignation")


def _fold_timeout(record: Record, event: dict) -> Record:
    position = record.ensure_position()
    result = rules_for(record.head).time_loss_result(position, loser=record.head["turn"])
    return _changed(record, state="finished", result=result, reason="timeout")


def _fold_takeover(record: Record, event: dict) -> Record:
    return _changed(record, **{f"{event['seat']}_cpu": event["level"]})


def _fold_resume(record: Record, event: dict) -> Record:
    return _changed(record, **{f"{event['by']}_cpu": None})


def _fold_rematch(record: Record, event: dict) -> Record:
    return _changed(record, rematch=event["game_id"])


def _changed(record: Record, **changes) -> Record:
    return Record(head={**record.head, **changes}, position=record.position, recent_moves=record.recent_moves)


_FOLDS: dict[str, Callable[[Record, dict], Record]] = {
    "join": _fold_join,
    "move": _fold_move,
    "offer_draw": _fold_offer,
    "decline_draw": _fold_decline,
    "accept_draw": _fold_accept,
    "resign": _fold_resign,
    "claim_timeout": _fold_timeout,
    "rematch": _fold_rematch,
    "cpu_takeover": _fold_takeover,
    "resume": _fold_resume,
}


def fold_all(record: Record | None, events: list[dict]) -> Record:
    for event in events:
        record = fold(record, event)
    if record is None:
        raise ValueError("an empty log")
    return record


# ========================================================================================== views
def game_view(record: Record) -> dict:
    """The public state of a game (``GameState``): no token hash, no invite."""
    head = record.head
    position = record.ensure_position()
    ongoing = head["result"] == "ongoing"
    return {
        "id": head["id"],
        "game": head["game"],
        "options": head["options"],
        "state": head["state"],
        "fen": position.fen(),
        "ply": head["ply"],
        "turn": head["turn"],
        "status": {"result": head["result"], "reason": head.get("reason")},
        "players": {color: _seat_view(head, color) for color in COLORS},
        "deadline": iso(head.get("deadline")) if head["state"] == "active" else None,
        "draw_offer": head.get("draw_offer"),
        "legal_moves": position.legal_notations() if ongoing else [],
        "last_move": record.recent_moves[-1] if head["ply"] and record.recent_moves else None,
        **_chess_squares(head, position, ongoing),
        "cpu_takeover": taken_over(head),
        "rematch": head.get("rematch"),
        "rematch_of": head.get("rematch_of"),
        "created_at": iso(head["created"]),
        "updated_at": iso(head["updated"]),
    }


def _chess_squares(head: dict, position: Position, ongoing: bool) -> dict:
    """Chess moves by their squares (UCI), so a board can mark them without the rules: null for draughts,
    whose notation already names the squares."""
    if head["game"] != "chess":
        return {"legal_moves_uci": None, "last_move_uci": None}
    stack = position.board.move_stack  # the moves since the anchor: never empty once a move is played
    return {
        "legal_moves_uci": [move.uci() for move in position.legal_moves()] if ongoing else [],
        "last_move_uci": stack[-1].uci() if head["ply"] and stack else None,
    }


def taken_over(head: dict) -> dict | None:
    """The seat the computer plays for its absent player (``cpu-takeover``) and the level, or None."""
    for color in COLORS:
        if head.get(f"{color}_cpu") and head.get(f"{color}_id"):
            return {"seat": color, "level": head[f"{color}_cpu"]}
    return None


def _seat_view(head: dict, color: str) -> dict | None:
    player_id = head.get(f"{color}_id")
    if head.get(f"{color}_cpu") and not player_id:  # the computer's own seat (a taken-over seat keeps its player)
        return {"player_id": CPU_PLAYER_ID, "name": head.get(f"{color}_name"), "cpu_level": head[f"{color}_cpu"]}
    return {"player_id": player_id, "name": head.get(f"{color}_name")} if player_id else None


CPU_PLAYER_ID = "cpu"


def moves_in_person(head: dict, events: list[dict], color: str) -> list[tuple[Position, object]]:
    """The (position, move) pairs of the moves ``color``'s player made, not the computer standing in for them."""
    game = rules_for(head)
    start = events[0].get("start_fen") if events else None
    position = game.from_fen(start) if start else game.start()
    stand_in = False
    pairs = []
    for event in events:
        if event["kind"] == "cpu_takeover" and event["seat"] == color:
            stand_in = True
        elif event["kind"] == "resume" and event["by"] == color:
            stand_in = False
        elif event["kind"] == "move":
            move = position.parse_move(event["move"])
            if event["by"] == color and not stand_in:
                pairs.append((position, move))
            position = position.play(move)
    return pairs


def cpu_name(level: int) -> str:
    return f"Computer (level {level})"


def cpu_seed(game_id: str, ply: int) -> int:
    """The computer's randomness for one move: the same game and ply always give the same reply, so a
    retried request or two racing instances compute the same event."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{ply}".encode()).digest()[:8], "big")


def cpu_to_move(head: dict) -> bool:
    return head["state"] == "active" and bool(head.get(f"{head['turn']}_cpu"))


def cpu_reply(record: Record) -> dict | None:
    """The computer's move event when it is the computer's turn in an active game, else None."""
    head = record.head
    if not cpu_to_move(head):
        return None
    level = head[f"{head['turn']}_cpu"]
    position = record.ensure_position()
    try:
        choice = choose_move(position.game, position, int(level), seed=cpu_seed(head["id"], head["ply"]))
    except GameOver:
        return None
    return {
        "kind": "move",
        "by": head["turn"],
        "move": choice.notation,
        "ply": head["ply"] + 1,
        "fen": position.play(choice.move).fen(),
    }


def summary_view(head: dict, color: str) -> dict:
    return {
        "id": head["id"],
        "game": head["game"],
        "state": head["state"],
        "color": color,
        "your_turn": head["state"] == "active" and head["turn"] == color,
        "turn": head["turn"],
        "ply": head["ply"],
        "status": {"result": head["result"], "reason": head.get("reason")},
        "opponent": _seat_view(head, other(color)),
        "deadline": iso(head.get("deadline")) if head["state"] == "active" else None,
        "draw_offer": head.get("draw_offer"),
        "updated_at": iso(head["updated"]),
    }


def etag_of(seq: int) -> str:
    return f'"{REPRESENTATION}.{seq}"'


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


# ======================================================================================= the service
@dataclass
class Outcome:
    """What an action returns: the game as it now stands, and the caller's seat."""

    record: Record
    seat: str | None = None
    created: bool = False
    invite: dict | None = None


class GamesService:
    def __init__(self, store: GameStore | None = None, clock: Callable[[], float] = time.time, site_url: str = ""):
        self.store = store or GameStore()
        self.clock = clock
        self.site_url = site_url.rstrip("/")

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ---------------------------------------------------------------------------- reading a game
    def _load(self, game_id: str) -> Record:
        """The game at its head, with its position: one read, or the log when the head cannot do."""
        head = self.store.get_head(game_id)
        if head is None:
            return self._load_log(game_id)[0]
        record = Record(head=head, stored_seq=head["seq"])
        try:
            record.ensure_position()
        except CacheMiss:
            return self._load_log(game_id)[0]
        return record

    def _load_log(self, game_id: str, head: dict | None = None, events: list[dict] | None = None):
        """The game folded from its whole log (the head repaired if it was behind); (record, events)."""
        if events is None:
            head, events = self.store.load(game_id)
        if not events:
            raise GameNotFound(f"there is no game {game_id}")
        record = fold_all(None, events)
        record.stored_seq = head["seq"] if head else 0
        self._repair(record)
        return record, events

    def _catch_up(self, record: Record) -> tuple[Record, bool]:
        """The record with the events appended after it; (record, whether there were any)."""
        newer = self.store.events_after(record.head["id"], record.seq)
        if not newer:
            return record, False
        try:
            return fold_all(record, newer), True
        except CacheMiss:
            return self._load_log(record.head["id"])[0], True

    def _repair(self, record: Record) -> None:
        """Store the head if the stored one is behind the log (after a crash between the two writes)."""
        if record.seq > record.stored_seq:
            self._save_head(record)

    def _save_head(self, record: Record) -> None:
        try:
            self.store.save_head(record.head)
            record.stored_seq = max(record.stored_seq, record.seq)
        except StoreUnavailable:
            # The event is committed; the head catches up on the next read (see docs/games.md).
            logger.warning("head not saved; a later read repairs it", extra={"game_id": record.head["id"]})

    # ------------------------------------------------------------------------- the write protocol
    def _act(
        self,
        game_id: str,
        decide: Callable[[Record], dict | None],
        follow: Callable[[Record], dict | None] | None = None,
    ) -> Record:
        """Run ``decide`` against the game and append the event it returns (see the module docstring).

        ``follow`` (the computer's reply) may answer the new record with one more event, appended the same way
        before the head is stored; it also runs first, when the game is waiting for it (a crash left it owed).
        """
        record = self._load(game_id)
        if follow is not None:
            charge_computer(record.head)  # issue 17: before anything is written (RateLimited: a 429)
            record = self._follow(game_id, record, follow)
        caught_up = False
        for _ in range(MAX_ROUNDS):
            try:
                event = decide(record)
            except (Conflict, Forbidden, IllegalMove):
                # A head behind its log (a crash between the writes) must not refuse what the log allows.
                if caught_up:
                    raise
                record, changed = self._catch_up(record)
                caught_up = True
                if not changed:
                    raise
                continue
            if event is None:  # nothing to do: a retry of what is already done
                if follow is not None:
                    record = self._follow(game_id, record, follow)
                self._repair(record)
                return record
            event = {**event, "seq": record.seq + 1, "at": event.get("at") or self.now_ms()}
            new = fold(record, event)  # before writing: an event that cannot be folded is never stored
            new.stored_seq = record.stored_seq
            if self.store.append_event(game_id, event):
                metrics.game_event(event["kind"], record.head["state"], new.head["state"])
                if follow is not None:
                    new = self._follow(game_id, new, follow)
                self._save_head(new)
                return new
            record, _ = self._catch_up(record)
            caught_up = True
        raise StoreUnavailable("the game is too busy right now; try again")

    def _follow(self, game_id: str, record: Record, follow: Callable[[Record], dict | None]) -> Record:
        """Append the event ``follow`` makes of ``record`` (the computer's move), if any: the record after it.

        Its append is conditional like any other. Losing it means another request appended at that number
        (the same computer move, seeded by game and ply, or a newer event): the record catches up instead.
        A store failure leaves the reply owed; the next request on the game makes it (see docs/games.md).
        """
        event = follow(record)
        if event is None:
            return record
        event = {**event, "seq": record.seq + 1, "at": self.now_ms()}
        new = fold(record, event)
        new.stored_seq = record.stored_seq
        try:
            if self.store.append_event(game_id, event):
                metrics.game_event(event["kind"], record.head["state"], new.head["state"])
                return new
            return self._catch_up(record)[0]
        except StoreUnavailable:
            logger.warning("the computer's reply is owed; the next request makes it", extra={"game_id": game_id})
            return record

    def _create(self, event: dict, follow: Callable[[Record], dict | None] | None = None) -> Record:
        """Append a new game's first event under a fresh id (drawn again on the rare collision)."""
        if follow is not None:
            charge_computer(event)  # issue 17: a game against the computer, before it is written
        while True:
            game_id = event.get("game_id") or secrets.token_urlsafe(GAME_ID_BYTES)
            first = {**event, "game_id": game_id, "seq": 1}
            record = fold(None, first)
            if self.store.append_event(game_id, first):
                metrics.game_event(first["kind"], None, record.head["state"])
                if follow is not None:  # the computer opens when it has White
                    record = self._follow(game_id, record, follow)
                self._save_head(record)
                return record
            if event.get("game_id"):  # a given id (a rematch) exists already: read it
                return self._load(game_id)

    # ------------------------------------------------------------------------------------ actions
    def create(
        self, player: Player, game: str, color: str, options: dict, fen: str | None, cpu_level: int | None = None
    ) -> Outcome:
        """A new game: the player takes a seat; the other is open (an invite) or the computer's (``cpu_level``)."""
        if cpu_level is not None and cpu_level not in CPU_LEVELS:
            raise InvalidGameOption(f"the computer's level must be one of {CPU_LEVELS[0]} to {CPU_LEVELS[-1]}")
        options = dict(options)
        days = options.pop("days_per_move", DEFAULT_DAYS_PER_MOVE)
        swap = options.pop("swap_colors", True)
        if isinstance(days, bool) or not isinstance(days, int) or not MIN_DAYS_PER_MOVE <= days <= MAX_DAYS_PER_MOVE:
            raise InvalidGameOption(
                f"option 'days_per_move' must be a whole number from {MIN_DAYS_PER_MOVE} to {MAX_DAYS_PER_MOVE}"
            )
        if not isinstance(swap, bool):
            raise InvalidGameOption("option 'swap_colors' must be true or false")
        rules = get_game(game, options)  # RulesError (422) for an unknown or bad option
        start_fen = None
        if fen is not None:
            position = rules.from_fen(fen)
            if position.status().is_over:
                raise InvalidFen(f"the game would be over before it starts ({position.status().reason})")
            start_fen = None if position.fen() == rules.start().fen() else position.fen()
        seat = color if color in COLORS else secrets.choice(COLORS)
        seats = {seat: _seat(player)}
        invite = None
        if cpu_level is not None:
            seats[other(seat)] = {"id": None, "key": None, "name": cpu_name(cpu_level), "cpu": cpu_level}
        else:
            invite = secrets.token_urlsafe(INVITE_BYTES)
        record = self._create(
            {
                "kind": "create",
                "at": self.now_ms(),
                "by": seat,
                "game": game,
                "options": {**rules.options, "days_per_move": days, "swap_colors": swap},
                "start_fen": start_fen,
                "seats": seats,
                "invite_key": secret_hash(invite) if invite else None,
            },
            follow=cpu_reply,
        )
        game_id = record.head["id"]
        link = {"code": invite, "url": self.invite_url(game_id, invite)} if invite else None
        return Outcome(record, seat=seat, created=True, invite=link)

    def invite_url(self, game_id: str, invite: str, base: str | None = None) -> str:
        # The code travels in the fragment: browsers never send it to a server or in a Referer.
        return f"{(base if base is not None else self.site_url).rstrip('/')}/game/?id={game_id}#invite={invite}"

    def join(self, player: Player, game_id: str, invite: str) -> Outcome:
        joined: dict[str, str] = {}

        def decide(record: Record) -> dict | None:
            head = record.head
            seat = record.seat_of(player.token_hash)
            if seat is not None:
                if head["state"] == "waiting":
                    raise Conflict(
                        "you created this game; send the invite link to your opponent",
                        code="own_game",
                        extra={"game": game_view(record)},
                    )
                joined["seat"] = seat  # a retried join: the seat is already this player's
                return None
            if head["state"] != "waiting":
                raise Conflict("both seats are taken", code="game_full", extra={"game": game_view(record)})
            if not token_matches(secret_hash(invite).hex(), head.get("invite_key")):
                raise Forbidden("that invite code does not open this game", code="invalid_invite")
            open_seat = next(color for color in COLORS if not head.get(f"{color}_id"))
            joined["seat"] = open_seat
            return {"kind": "join", "by": open_seat, "seat": _seat(player)}

        record = self._act(game_id, decide)
        return Outcome(record, seat=joined["seat"])

    def move(self, token_hash: str, game_id: str, text: str, ply: int) -> Outcome:
        def decide(record: Record) -> dict | None:
            head = record.head
            color = self._seat_or_refuse(record, token_hash)
            if ply < head["ply"] and (
                self._already_played(record, color, text, ply) or self._answered_by_cpu(record, color, text, ply)
            ):
                return None  # the very move already accepted at that ply: a retry
            self._refuse_unless_active(record)
            self._refuse_if_computer_plays(record, color)
            if ply != head["ply"]:
                raise Conflict(
                    f"the game has moved on: {head['ply']} moves are played, not {ply}; here it is",
                    code="stale_ply",
                    extra={"game": game_view(record)},
                )
            if head["turn"] != color:
                raise Forbidden(f"it is {head['turn']}'s move", code="not_your_turn", reason="not_your_turn")
            position = record.ensure_position()
            try:
                move = position.parse_move(text)
            except InvalidMove as refusal:
                raise IllegalMove(
                    str(refusal),
                    code=refusal.code,
                    reason=refusal.reason,
                    extra={"legal_moves": position.legal_notations()},
                ) from None
            return {
                "kind": "move",
                "by": color,
                "move": position.notation(move),
                "ply": ply + 1,
                "fen": position.play(move).fen(),
            }

        return Outcome(self._act(game_id, decide, follow=cpu_reply))

    @staticmethod
    def _already_played(record: Record, color: str, text: str, ply: int) -> bool:
        """Whether ``color`` played ``text`` at ``ply``. Known for the moves since the anchor (the head keeps
        them); an older retry is answered with a 409 and the game, which shows the move."""
        head = record.head
        record.ensure_position()
        moves = record.recent_moves or []
        index = ply - head.get("anchor_ply", 0)
        if not 0 <= index < len(moves):
            return False
        mover = head["turn"] if (head["ply"] - ply) % 2 == 0 else other(head["turn"])
        if mover != color:
            return False
        if text.strip() == moves[index]:
            return True
        try:
            before = rules_for(head, head.get("anchor_ply", 0)).replay(moves[:index], head.get("anchor_fen"))
            return before.notation(before.parse_move(text)) == moves[index]
        except RulesError:
            return False

    def _answered_by_cpu(self, record: Record, color: str, text: str, ply: int) -> bool:
        """Whether ``color`` played ``text`` at ``ply`` and the computer answered it (the reply usually moves the
        anchor past the player's move). Reads the last two events, only for such a retry."""
        head = record.head
        if ply != head["ply"] - 2 or head["turn"] != color or not head.get(f"{other(color)}_cpu"):
            return False
        events = self.store.events_after(head["id"], max(0, record.seq - 2))
        mine = next((e for e in events if e["kind"] == "move" and e.get("ply") == ply + 1), None)
        if mine is None or mine["by"] != color:
            return False
        # The move as stored (canonical notation, which clients send back); other spellings get the 409 with the game.
        return text.strip() == mine["move"]

    def resign(self, token_hash: str, game_id: str) -> Outcome:
        def decide(record: Record) -> dict | None:
            color = self._seat_or_refuse(record, token_hash)
            head = record.head
            if head["state"] == "finished" and head.get("reason") == "resignation" and head["result"] == other(color):
                return None
            self._refuse_unless_active(record)
            return {"kind": "resign", "by": color}

        return Outcome(self._act(game_id, decide))

    def draw(self, token_hash: str, game_id: str, action: str) -> Outcome:
        def decide(record: Record) -> dict | None:
            color = self._seat_or_refuse(record, token_hash)
            head = record.head
            if head["state"] == "finished" and head.get("reason") == "agreement" and action in ("offer", "accept"):
                return None
            self._refuse_unless_active(record)
            offer = head.get("draw_offer")
            if action == "offer":
                if offer == color:
                    return None  # already offered
                return {"kind": "accept_draw" if offer == other(color) else "offer_draw", "by": color}
            if offer != other(color):
                raise Conflict(
                    "your opponent has not offered a draw", code="no_draw_offer", extra={"game": game_view(record)}
                )
            return {"kind": "accept_draw" if action == "accept" else "decline_draw", "by": color}

        return Outcome(self._act(game_id, decide))

    def claim_timeout(self, token_hash: str, game_id: str) -> Outcome:
        now = self.now_ms()

        def decide(record: Record) -> dict | None:
            color = self._seat_or_refuse(record, token_hash)
            head = record.head
            if head["state"] == "finished" and head.get("reason") == "timeout":
                return None
            self._refuse_unless_active(record)
            self._refuse_unless_opponent_overdue(record, color, now, "only the side to move can run out of time")
            return {"kind": "claim_timeout", "by": color, "at": now}

        return Outcome(self._act(game_id, decide))

    @staticmethod
    def _refuse_unless_opponent_overdue(record: Record, color: str, now: int, why: str) -> None:
        """Refuse (409) unless the opponent is to move and past their deadline."""
        head = record.head
        if head["turn"] == color:
            raise Conflict(f"it is your move: {why}", code="your_move", extra={"game": game_view(record)})
        if now <= head["deadline"]:
            raise Conflict(
                f"your opponent has until {iso(head['deadline'])} to move",
                code="deadline_not_passed",
                extra={"game": game_view(record)},
            )

    def cpu_takeover(self, token_hash: str, game_id: str) -> Outcome:
        """The computer plays on for the opponent, whose time ran out, at about the level of that player's own
        moves in this game (``estimate_level``); it moves at once (``follow``)."""
        now = self.now_ms()
        levels: dict[str, int] = {}

        def level_of(head: dict, color: str) -> int:
            if color not in levels:  # one read of the log, only once the takeover is allowed
                events = self.store.events_after(game_id, 0)
                levels[color] = estimate_level(rules_for(head), moves_in_person(head, events, color))
            return levels[color]

        def decide(record: Record) -> dict | None:
            color = self._seat_or_refuse(record, token_hash)
            head = record.head
            absent = other(color)
            if head.get(f"{absent}_cpu"):
                return None  # the computer plays that seat already (a retry)
            self._refuse_unless_active(record)
            self._refuse_if_computer_plays(record, color)  # never the computer against itself
            self._refuse_unless_opponent_overdue(
                record, color, now, "the computer can only take over for a side whose time ran out"
            )
            return {"kind": "cpu_takeover", "by": color, "seat": absent, "level": level_of(head, absent), "at": now}

        return Outcome(self._act(game_id, decide, follow=cpu_reply))

    def resume(self, token_hash: str, game_id: str) -> Outcome:
        """The player takes back the seat the computer played for them."""

        def decide(record: Record) -> dict | None:
            color = self._seat_or_refuse(record, token_hash)
            if not record.head.get(f"{color}_cpu"):
                return None  # the seat is the player's (a retry, or it was never taken over)
            self._refuse_unless_active(record)
            return {"kind": "resume", "by": color}

        return Outcome(self._act(game_id, decide, follow=cpu_reply))

    def rematch(self, token_hash: str, game_id: str) -> Outcome:
        seats: dict[str, str] = {}

        def decide(record: Record) -> dict | None:
            seats["old"] = self._seat_or_refuse(record, token_hash)
            head = record.head
            if head.get("rematch"):
                return None
            if head["state"] != "finished":
                raise Conflict(
                    "a rematch can start once this game is over",
                    code="game_not_finished",
                    extra={"game": game_view(record)},
                )
            return {"kind": "rematch", "by": seats["old"], "game_id": secrets.token_urlsafe(GAME_ID_BYTES)}

        old = self._act(game_id, decide)
        new, created = self._rematch_game(old)
        seat = new.seat_of(token_hash) or seats["old"]
        return Outcome(new, seat=seat, created=created)

    def _rematch_game(self, old: Record) -> tuple[Record, bool]:
        """The rematch game of ``old``, creating it if a crash left only its id in ``old``."""
        head = old.head
        existing = self.store.get_head(head["rematch"])
        if existing is not None:
            record = Record(head=existing, stored_seq=existing["seq"])
            try:
                record.ensure_position()
            except CacheMiss:
                record = self._load_log(head["rematch"])[0]
            return record, False
        first = self.store.get_event(head["id"], 1)
        swap = head["options"].get("swap_colors", True)
        seats = {}
        for color in COLORS:
            source = other(color) if swap else color
            seats[color] = {
                "id": head.get(f"{source}_id"),
                "key": head.get(f"{source}_key"),
                "name": head.get(f"{source}_name"),
                # The computer's own seat stays the computer's; a seat it only played on for its player does not.
                "cpu": None if head.get(f"{source}_id") else head.get(f"{source}_cpu"),
            }
        event = {
            "kind": "create",
            "game_id": head["rematch"],
            "at": head["updated"],  # the rematch event's time: the same new game whoever creates it
            "by": None,
            "game": head["game"],
            "options": head["options"],
            "start_fen": first.get("start_fen") if first else None,
            "seats": seats,
            "rematch_of": head["id"],
        }
        return self._create(event, follow=cpu_reply), True

    # ---------------------------------------------------------------------------------- reading
    def get(self, game_id: str, if_none_match: str | None = None) -> tuple[dict, str]:
        """The game with its moves (``GameDetail``) and its ETag; ``NotModified`` when the client's is current."""
        known = seq_from_etag(if_none_match)
        if known == -1:  # "If-None-Match: *": any copy will do while the game exists
            head = self.store.get_head(game_id)
            if head is not None:
                raise NotModified(etag_of(head["seq"]))
        elif known is not None:
            # One small Query: the head and any event after the client's copy (a head behind its log
            # must not answer 304 for a game that has moved on).
            head, newer = self.store.load(game_id, after_seq=known)
            if head is not None and not newer and head["seq"] == known:
                raise NotModified(etag_of(known))
        record, events = self._read_log(game_id)
        if cpu_to_move(record.head):  # a crash left the computer's reply owed: make it now
            self._act(game_id, lambda _record: None, follow=cpu_reply)
            record, events = self._read_log(game_id)
        detail = game_view(record)
        detail["moves"] = [event["move"] for event in events if event["kind"] == "move"]
        detail["start_fen"] = events[0].get("start_fen")
        return detail, etag_of(record.seq)

    def _read_log(self, game_id: str) -> tuple[Record, list[dict]]:
        head, events = self.store.load(game_id)
        if head is None or not events:
            return self._load_log(game_id, head, events)
        record = Record(head=head, stored_seq=head["seq"])
        newer = [event for event in events if event["seq"] > head["seq"]]
        try:
            record = fold_all(record, newer) if newer else record
            record.ensure_position()
        except CacheMiss:
            return self._load_log(game_id, head, events)
        record.stored_seq = head["seq"]
        self._repair(record)
        return record, events

    def export(self, game_id: str) -> dict:
        """What the PGN or PDN of a game is made from."""
        record, events = self._read_log(game_id)
        return {"head": record.head, "events": events, "site_url": self.site_url}

    def games_of(self, player: Player, status: str, cursor: str | None, limit: int) -> dict:
        """The player's games, newest activity first; active games where it is the player's turn first."""
        low, high = (RANK_WAITING * ORDER_SCALE, (RANK_YOUR_TURN + 1) * ORDER_SCALE - 1)
        if status == "finished":
            low, high = RANK_FINISHED * ORDER_SCALE, RANK_WAITING * ORDER_SCALE - 1
        positions = _read_cursor(cursor, status, low, high)
        fetched: dict[str, list[dict]] = {}
        more: dict[str, bool] = {}
        for color in COLORS:
            if positions[color] == "end":
                fetched[color], more[color] = [], False
            else:
                fetched[color], more[color] = self.store.games_of_player(
                    player.player_id, color, low, high, positions[color], limit
                )
        page: list[tuple[str, dict]] = []
        taken = {color: 0 for color in COLORS}
        while len(page) < limit:  # merge two lists, each already in descending order, keeping each list's order
            candidates = [color for color in COLORS if taken[color] < len(fetched[color])]
            if not candidates:
                break
            color = max(candidates, key=lambda c: fetched[c][taken[c]][f"{c}_order"])
            page.append((color, fetched[color][taken[color]]))
            taken[color] += 1
        following: dict[str, Any] = {}
        for color in COLORS:
            if taken[color] == len(fetched[color]) and not more[color]:
                following[color] = "end"
            elif taken[color]:
                last = fetched[color][taken[color] - 1]
                following[color] = [last[f"{color}_order"], last["id"]]
            else:
                following[color] = positions[color]
        done = all(value == "end" for value in following.values())
        return {
            "games": [summary_view(head, color) for color, head in page],
            "cursor": None if done else _write_cursor(status, following),
        }

    # ---------------------------------------------------------------------------------- helpers
    @staticmethod
    def _seat_or_refuse(record: Record, token_hash: str) -> str:
        color = record.seat_of(token_hash)
        if color is None:
            raise Forbidden("you hold no seat in this game", code="not_a_player")
        return color

    @staticmethod
    def _refuse_if_computer_plays(record: Record, color: str) -> None:
        if record.head.get(f"{color}_cpu"):
            raise Conflict(
                "the computer is playing your seat since your time ran out; resume the game to play again",
                code="computer_plays_your_seat",
                extra={"game": game_view(record)},
            )

    @staticmethod
    def _refuse_unless_active(record: Record) -> None:
        state = record.head["state"]
        if state == "waiting":
            raise Conflict(
                "the game starts when your opponent joins", code="game_not_started", extra={"game": game_view(record)}
            )
        if state == "finished":
            raise Conflict("the game is over", code="game_over", reason="game_over", extra={"game": game_view(record)})


def _seat(player: Player) -> dict:
    return {"id": player.player_id, "key": bytes.fromhex(player.token_hash), "name": player.name}


def _write_cursor(status: str, positions: dict) -> str:
    text = json.dumps({"s": status, **{color[0]: positions[color] for color in COLORS}}, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _read_cursor(cursor: str | None, status: str, low: int, high: int) -> dict[str, Any]:
    """Where each seat's list resumes: None (the start), "end", or [order, game id]. ``InvalidCursor`` if forged."""
    if not cursor:
        return {color: None for color in COLORS}
    problem = InvalidCursor("the cursor is not one this API gave for this list; start again without it")
    if len(cursor) > 400:
        raise problem
    try:
        data = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise problem from None
    if not isinstance(data, dict) or data.get("s") != status:
        raise problem
    positions = {}
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
