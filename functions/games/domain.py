"""The games domain: a game's head (its state now), the events that change it, and the pure fold of one
into the other (``apply``). No I/O, no HTTP: the service (``games.service``) runs the write protocol, the
codec (``games.codec``) stores these values, the views (``games.views``) show them.

The head carries what the rules need to go on without replaying a move: the rules layer's ``Snapshot``
(the position and the draw rules' memory since the last irreversible move). So every request costs the
same at ply 10 and at ply 3,000, and ``MAX_PLIES`` ends any game as a draw so none grows without bound.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal, TypeAlias

from shared_rules import Game, Position, RulesError, Snapshot, get_game

Color = Literal["white", "black"]
Phase = Literal["waiting", "active", "finished"]
Result = Literal["ongoing", "white", "black", "draw"]
COLORS: tuple[Color, Color] = ("white", "black")

DAY_MS = 86_400_000
DEFAULT_DAYS_PER_MOVE = 3
MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE = 1, 14
GAME_OPTIONS = ("days_per_move", "swap_colors")  # the site's options; every other option is the rules layer's
CPU_LEVELS = (1, 2, 3, 4, 5)
#: The longest game: the move that reaches this ply ends the game as a draw (reason ``move_limit``), whatever
#: the game's own rules say. No honest game comes near it (chess's fifty-move rule ends nearly every game by
#: ply 600); it bounds what a Tanzanian king manoeuvre without a repetition rule can cost.
MAX_PLIES = 1_000
#: The head keeps the last moves, so a retried move (even one the computer has already answered) is known.
LAST_MOVES_KEPT = 2
#: Listing order: a game's rank for one seat, times ORDER_SCALE, plus its last activity (epoch ms).
ORDER_SCALE = 10**13
RANK_FINISHED, RANK_WAITING, RANK_YOUR_TURN = 1, 2, 3


def other(color: Color) -> Color:
    return "black" if color == "white" else "white"


class DamagedHead(Exception):
    """The stored head cannot give its position (an older format, or damaged): fold the log instead."""


@dataclass(frozen=True)
class Seat:
    """Who sits on one side. ``cpu`` is the computer's level: on its own seat (no ``player_id``), or while it
    plays on for an absent player (``cpu-takeover``)."""

    player_id: str | None
    key: bytes | None  # the SHA-256 of the player's token
    name: str | None
    cpu: int | None = None

    @property
    def is_computer(self) -> bool:
        return self.player_id is None and self.cpu is not None


@dataclass(frozen=True)
class PlayedMove:
    """One of the last moves, as the head keeps it to recognise a retry."""

    ply: int  # the game's ply before the move: the ``ply`` its request carried
    by: Color
    move: str  # canonical notation
    uci: str | None  # chess: the move in UCI
    before: str  # the FEN before the move, to read a retry spelled another way


@dataclass(frozen=True)
class GameHead:
    id: str
    game: str
    options: Mapping[str, Any]
    seq: int
    ply: int
    state: Phase
    turn: Color
    result: Result
    reason: str | None
    white: Seat | None
    black: Seat | None
    snapshot: Snapshot
    created: int
    updated: int
    last_moves: tuple[PlayedMove, ...] = ()
    deadline: int | None = None
    draw_offer: Color | None = None
    invite_key: bytes | None = None
    rematch: str | None = None
    rematch_of: str | None = None
    max_plies: int = MAX_PLIES
    #: The first position's FEN when it is not the rules' own start (None: it is). ``start_known`` is False
    #: on a head stored before the head carried it: the first event has it (one more read).
    start_fen: str | None = None
    start_known: bool = True

    def seat(self, color: Color) -> Seat | None:
        return self.white if color == "white" else self.black

    def seat_of(self, token_hash: str | None) -> Color | None:
        """The seat whose token hash matches, compared in constant time (both seats are always compared)."""
        if not token_hash:
            return None
        found: Color | None = None
        for color in COLORS:
            seat = self.seat(color)
            if seat is not None and token_matches(token_hash, seat.key) and found is None:
                found = color
        return found

    def computer_level(self, color: Color) -> int | None:
        seat = self.seat(color)
        return seat.cpu if seat else None

    @property
    def computer_to_move(self) -> bool:
        return self.state == "active" and bool(self.computer_level(self.turn))

    @property
    def days_per_move(self) -> int:
        return int(self.options["days_per_move"])

    def order(self, color: Color) -> int | None:
        """Where the game sorts in the list of the player on ``color``: your move, then waiting, then finished."""
        seat = self.seat(color)
        if seat is None or seat.player_id is None:
            return None
        if self.state == "finished":
            rank = RANK_FINISHED
        elif self.state == "active" and self.turn == color:
            rank = RANK_YOUR_TURN
        else:
            rank = RANK_WAITING
        return rank * ORDER_SCALE + self.updated

    def rules(self) -> Game:
        return rules_for(self.game, self.options)

    def position(self) -> Position[Any]:
        """The position at the head, restored from its snapshot (no move replayed); ``DamagedHead`` if it cannot."""
        return _restore(self.game, _options_key(self.options), self.snapshot)


def token_matches(token_hash: str, stored: str | bytes | None) -> bool:
    """Whether a token's hash equals a stored one, in time that does not depend on where they differ."""
    if not stored:
        return False
    stored_hex = stored.hex() if isinstance(stored, bytes) else stored
    return hmac.compare_digest(token_hash.encode("ascii"), stored_hex.encode("ascii"))


def rules_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in options.items() if name not in GAME_OPTIONS}


def rules_for(game: str, options: Mapping[str, Any]) -> Game:
    return _rules(game, _options_key(options))


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(rules_options(options).items()))


@lru_cache(maxsize=64)
def _rules(game: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return get_game(game, dict(options))


#: Positions by their snapshot: a position never changes, and the one a fold computed is the one the next
#: request of the same instance restores (bounded; cleared when full).
_POSITIONS: dict[tuple[str, tuple[tuple[str, Any], ...], Snapshot], Position[Any]] = {}
_POSITIONS_MAX = 256


def _restore(game: str, options: tuple[tuple[str, Any], ...], snapshot: Snapshot) -> Position[Any]:
    key = (game, options, snapshot)
    found = _POSITIONS.get(key)
    if found is None:
        try:
            found = _rules(game, options).restore(snapshot)
        except RulesError as error:
            raise DamagedHead(str(error)) from None
        _remember(key, found)
    return found


def _remember(key: tuple[str, tuple[tuple[str, Any], ...], Snapshot], position: Position[Any]) -> None:
    if len(_POSITIONS) >= _POSITIONS_MAX:
        _POSITIONS.clear()
    _POSITIONS[key] = position


@dataclass(frozen=True)
class PlayedNotation:
    """A move given as text, played: the rules' move, its canonical notation and the position after it."""

    before: Position[Any]
    text: str
    move: Any
    notation: str
    after: Position[Any]


_LAST_PLAYED: PlayedNotation | None = None


def play_notation(position: Position[Any], text: str) -> PlayedNotation:
    """``text`` played in ``position``; ``InvalidMove`` (from the rules) if it is not a legal move there.

    The last answer is kept: the fold that follows a decision in the same request plays the same move in the
    same position (``GameHead.position`` returns one object per snapshot), and reading a chess move costs as
    much as the rest of the fold. Positions never change, so the kept answer is always right for them."""
    global _LAST_PLAYED
    last = _LAST_PLAYED
    if last is not None and last.before is position and text in (last.text, last.notation):
        return last
    move = position.parse_move(text)
    played = PlayedNotation(position, text, move, position.notation(move), position.play(move))
    _LAST_PLAYED = played
    return played


# ======================================================================================== the events
@dataclass(frozen=True, kw_only=True)
class Event:
    """One entry of a game's log. ``seq`` and ``at`` are set by the service when it appends the event."""

    seq: int = 0
    at: int = 0
    by: Color | None = None


@dataclass(frozen=True, kw_only=True)
class Created(Event):
    game_id: str
    game: str
    options: Mapping[str, Any]
    start_fen: str | None = None
    white: Seat | None = None
    black: Seat | None = None
    invite_key: bytes | None = None
    rematch_of: str | None = None
    max_plies: int = MAX_PLIES


@dataclass(frozen=True, kw_only=True)
class Joined(Event):
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    move: str  # canonical notation
    ply: int  # the game's ply after the move
    fen: str  # the position after the move


@dataclass(frozen=True, kw_only=True)
class DrawOffered(Event):
    pass


@dataclass(frozen=True, kw_only=True)
class DrawDeclined(Event):
    pass


@dataclass(frozen=True, kw_only=True)
class DrawAccepted(Event):
    pass


@dataclass(frozen=True, kw_only=True)
class Resigned(Event):
    pass


@dataclass(frozen=True, kw_only=True)
class TimeoutClaimed(Event):
    pass


@dataclass(frozen=True, kw_only=True)
class Rematched(Event):
    game_id: str


@dataclass(frozen=True, kw_only=True)
class ComputerTookOver(Event):
    seat: Color
    level: int


@dataclass(frozen=True, kw_only=True)
class Resumed(Event):
    pass


AnyEvent: TypeAlias = (
    Created
    | Joined
    | Moved
    | DrawOffered
    | DrawDeclined
    | DrawAccepted
    | Resigned
    | TimeoutClaimed
    | Rematched
    | ComputerTookOver
    | Resumed
)


# ========================================================================================== the fold
def apply(head: GameHead | None, event: Event) -> GameHead:
    """The head after one event. Pure: the same log always folds to the same head."""
    if isinstance(event, Created):
        if head is not None:
            raise ValueError("a game is created once")
        new = _created(event)
    else:
        if head is None:
            raise ValueError(f"{type(event).__name__} before the game was created")
        if event.seq != head.seq + 1:
            raise ValueError(f"event {event.seq} does not follow {head.seq}")
        new = _changed_by(head, event)
    new = replace(new, seq=event.seq, updated=event.at)
    if new.state == "finished":
        new = replace(new, deadline=None, draw_offer=None, invite_key=None)
    return new


def apply_all(head: GameHead | None, events: list[AnyEvent]) -> GameHead:
    for event in events:
        head = apply(head, event)
    if head is None:
        raise ValueError("an empty log")
    return head


def _created(event: Created) -> GameHead:
    rules = rules_for(event.game, event.options)
    position = rules.from_fen(event.start_fen) if event.start_fen else rules.start()
    full = event.white is not None and event.black is not None
    days = int(event.options["days_per_move"])
    return GameHead(
        id=event.game_id,
        game=event.game,
        options=dict(event.options),
        seq=event.seq,
        ply=0,
        state="active" if full else "waiting",
        turn=_color(position.turn),
        result="ongoing",
        reason=None,
        white=event.white,
        black=event.black,
        snapshot=position.snapshot(),
        created=event.at,
        updated=event.at,
        deadline=event.at + days * DAY_MS if full else None,
        invite_key=event.invite_key,
        rematch_of=event.rematch_of,
        max_plies=event.max_plies,
        start_fen=event.start_fen,
    )


def _changed_by(head: GameHead, event: Event) -> GameHead:
    if isinstance(event, Moved):
        return _moved(head, event)
    if isinstance(event, Joined):
        assert event.by is not None
        seated = replace(head, white=event.seat) if event.by == "white" else replace(head, black=event.seat)
        return replace(seated, state="active", invite_key=None, deadline=event.at + head.days_per_move * DAY_MS)
    if isinstance(event, DrawOffered):
        return replace(head, draw_offer=event.by)
    if isinstance(event, DrawDeclined):
        return replace(head, draw_offer=None)
    if isinstance(event, DrawAccepted):
        return replace(head, state="finished", result="draw", reason="agreement")
    if isinstance(event, Resigned):
        assert event.by is not None
        return replace(head, state="finished", result=other(event.by), reason="resignation")
    if isinstance(event, TimeoutClaimed):
        result = head.rules().time_loss_result(head.position(), loser=head.turn)
        return replace(head, state="finished", result=_result(result), reason="timeout")
    if isinstance(event, Rematched):
        return replace(head, rematch=event.game_id)
    if isinstance(event, ComputerTookOver):
        return _with_level(head, event.seat, event.level)
    if isinstance(event, Resumed):
        assert event.by is not None
        return _with_level(head, event.by, None)
    raise ValueError(f"unknown event {type(event).__name__}")


def _with_level(head: GameHead, color: Color, level: int | None) -> GameHead:
    seat = head.seat(color)
    if seat is None:
        raise ValueError(f"no one sits on {color}")
    seat = replace(seat, cpu=level)
    return replace(head, white=seat) if color == "white" else replace(head, black=seat)


def _moved(head: GameHead, event: Moved) -> GameHead:
    assert event.by is not None
    before = head.position()
    chosen = play_notation(before, event.move)
    after = chosen.after
    played = PlayedMove(
        ply=head.ply,
        by=event.by,
        move=chosen.notation,
        uci=chosen.move.uci() if head.game == "chess" else None,
        before=before.fen(),
    )
    ply = head.ply + 1
    snapshot = after.snapshot()
    _remember((head.game, _options_key(head.options), snapshot), after)
    changes: dict[str, Any] = {
        "ply": ply,
        "turn": _color(after.turn),
        "snapshot": snapshot,
        "last_moves": (*head.last_moves, played)[-LAST_MOVES_KEPT:],
    }
    if head.draw_offer and head.draw_offer != event.by:
        changes["draw_offer"] = None  # moving declines the opponent's offer
    status = after.status()
    if status.is_over:
        changes.update(state="finished", result=_result(status.result), reason=status.reason)
    elif ply >= head.max_plies:
        changes.update(state="finished", result="draw", reason="move_limit")
    else:
        changes["deadline"] = event.at + head.days_per_move * DAY_MS
    return replace(head, **changes)


def _color(value: str) -> Color:
    return "white" if value == "white" else "black"


def _result(value: str) -> Result:
    if value not in ("ongoing", "white", "black", "draw"):
        raise ValueError(f"unknown result {value!r}")
    return value  # type: ignore[return-value]


@dataclass
class Tracked:
    """A head and the seq of the head as the store has it (0: none stored), so the service knows when to
    write the head back (after a crash between the two writes, the stored head is behind its log)."""

    head: GameHead
    stored_seq: int = 0
    events: list[AnyEvent] = field(default_factory=list)

    @property
    def seq(self) -> int:
        return self.head.seq
