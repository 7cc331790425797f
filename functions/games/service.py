"""Correspondence games: seats, moves, draw offers, deadlines, resignations, timeouts and rematches.

A game is an append-only **event log** and a **head**, the fold of the log kept so that a request reads one
small item (``games.domain``). Every change follows one protocol (docs/games.md explains why it is safe):

1. read the head (one read);
2. decide, against the head, what event the request makes, or refuse it (nothing written);
3. append the event at ``seq + 1`` with a condition that no event has that number: the game's lock;
4. store the new head, with a condition that only lets the head move forward.

A request that loses step 3 to another reads the events it missed, folds them and decides again (a stale
``ply`` is then a 409, a retried move a 200). A crash between 3 and 4 loses nothing: whoever reads the game
next folds the missing events into the head. The service depends on a ``GameRepository`` and a clock only.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from aws_lambda_powertools import Logger
from common.deadline import StoreUnavailable
from common.players import Player

from games.codec import event_from, event_record, head_from, head_record
from games.computer import cpu_name, cpu_reply, level_of_player
from games.domain import (
    COLORS,
    CPU_LEVELS,
    DEFAULT_DAYS_PER_MOVE,
    MAX_DAYS_PER_MOVE,
    MAX_PLIES,
    MIN_DAYS_PER_MOVE,
    AnyEvent,
    Color,
    ComputerTookOver,
    Created,
    DamagedHead,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    GameHead,
    Joined,
    Moved,
    Rematched,
    Resigned,
    Resumed,
    Seat,
    TimeoutClaimed,
    Tracked,
    apply,
    apply_all,
    other,
    rules_for,
    token_matches,
)
from games.errors import Conflict, Forbidden, GameNotFound, IllegalMove, InvalidGameOption, NotModified
from games.repository import GameRepository
from games.views import etag_of, iso, order_range, read_cursor, seq_from_etag, summary_view, write_cursor
from shared_rules import InvalidMove, RulesError, get_game
from shared_rules.errors import InvalidFen

logger = Logger(child=True)

GAME_ID_BYTES = 9  # 72 random bits, 12 URL-safe characters
INVITE_BYTES = 16  # 128 bits
MAX_ROUNDS = 5  # attempts to append before giving up under extreme contention (503, the client retries)
LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX = 20, 50

Decide = Callable[[GameHead], AnyEvent | None]
Follow = Callable[[GameHead], Moved | None]


def secret_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode("utf-8")).digest()


@dataclass
class Outcome:
    """What an action returns: the game as it now stands, and the caller's seat."""

    head: GameHead
    seat: Color | None = None
    created: bool = False
    invite: dict[str, str] | None = None


class GamesService:
    def __init__(
        self,
        store: GameRepository,
        clock: Callable[[], float] = time.time,
        site_url: str = "",
        max_plies: int = MAX_PLIES,
    ):
        self.store = store
        self.clock = clock
        self.site_url = site_url.rstrip("/")
        self.max_plies = max_plies

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ---------------------------------------------------------------------------- reading a game
    def _load(self, game_id: str) -> Tracked:
        """The game at its head: one read, or the log when the head cannot give its position."""
        record = self.store.get_head(game_id)
        if record is None:
            return self._load_log(game_id)
        try:
            head = _usable_head(record)
        except DamagedHead:
            return self._load_log(game_id)
        return Tracked(head, stored_seq=head.seq)

    def _load_log(
        self, game_id: str, stored: dict[str, Any] | None = None, log: list[dict[str, Any]] | None = None
    ) -> Tracked:
        """The game folded from its whole log (the head repaired if it was behind). Only for a head that is
        missing or cannot be read: the one path that replays moves."""
        if log is None:
            stored, log = self.store.load(game_id)
        if not log:
            raise GameNotFound(f"there is no game {game_id}")
        events = [event_from(item) for item in log]
        tracked = Tracked(apply_all(None, events), stored_seq=int(stored["seq"]) if stored else 0, events=events)
        if stored is not None and "fen" not in stored:
            tracked.stored_seq = 0  # an older head format: write this one over it
        self._repair(tracked)
        return tracked

    def _catch_up(self, tracked: Tracked) -> tuple[Tracked, bool]:
        """The game with the events appended after it; (game, whether there were any)."""
        newer = [event_from(item) for item in self.store.events_after(tracked.head.id, tracked.seq)]
        if not newer:
            return tracked, False
        try:
            return Tracked(apply_all(tracked.head, newer), tracked.stored_seq), True
        except DamagedHead:
            return self._load_log(tracked.head.id), True

    def _repair(self, tracked: Tracked) -> None:
        """Store the head if the stored one is behind the log (after a crash between the two writes)."""
        if tracked.seq > tracked.stored_seq:
            self._save_head(tracked)

    def _save_head(self, tracked: Tracked) -> None:
        try:
            self.store.save_head(head_record(tracked.head))
            tracked.stored_seq = max(tracked.stored_seq, tracked.seq)
        except StoreUnavailable:
            # The event is committed; the head catches up on the next read (see docs/games.md).
            logger.warning("head not saved; a later read repairs it", extra={"game_id": tracked.head.id})

    # ------------------------------------------------------------------------- the write protocol
    def _act(self, game_id: str, decide: Decide, follow: Follow | None = None) -> GameHead:
        """Run ``decide`` against the game and append the event it returns (see the module docstring).

        ``follow`` (the computer's reply) may answer the new head with one more event, appended the same way
        before the head is stored; it also runs first, when the game is waiting for it (a crash left it owed).
        """
        tracked = self._load(game_id)
        if follow is not None:
            tracked = self._follow(tracked, follow)
        caught_up = False
        for _ in range(MAX_ROUNDS):
            try:
                event = decide(tracked.head)
            except (Conflict, Forbidden, IllegalMove):
                # A head behind its log (a crash between the writes) must not refuse what the log allows.
                if caught_up:
                    raise
                tracked, changed = self._catch_up(tracked)
                caught_up = True
                if not changed:
                    raise
                continue
            if event is None:  # nothing to do: a retry of what is already done
                if follow is not None:
                    tracked = self._follow(tracked, follow)
                self._repair(tracked)
                return tracked.head
            event = replace(event, seq=tracked.seq + 1, at=event.at or self.now_ms())
            new = Tracked(apply(tracked.head, event), tracked.stored_seq)  # an event that cannot fold is never stored
            if self.store.append_event(game_id, event_record(event)):
                if follow is not None:
                    new = self._follow(new, follow)
                self._save_head(new)
                return new.head
            tracked, _ = self._catch_up(tracked)
            caught_up = True
        raise StoreUnavailable("the game is too busy right now; try again")

    def _follow(self, tracked: Tracked, follow: Follow) -> Tracked:
        """Append the event ``follow`` makes (the computer's move), if any: the game after it.

        Its append is conditional like any other. Losing it means another request appended at that number
        (the same computer move, seeded by game and ply, or a newer event): the game catches up instead.
        A store failure leaves the reply owed; the next request on the game makes it (see docs/games.md).
        """
        event = follow(tracked.head)
        if event is None:
            return tracked
        event = replace(event, seq=tracked.seq + 1, at=self.now_ms())
        new = Tracked(apply(tracked.head, event), tracked.stored_seq)
        try:
            if self.store.append_event(tracked.head.id, event_record(event)):
                return new
            return self._catch_up(tracked)[0]
        except StoreUnavailable:
            logger.warning("the computer's reply is owed; the next request makes it", extra={"game_id": new.head.id})
            return tracked

    def _create(self, event: Created, follow: Follow | None = None) -> tuple[GameHead, bool]:
        """Append a new game's first event under a fresh id (drawn again on the rare collision); (head, created).
        With a given id (a rematch), a game that exists already is read instead: only one caller creates it."""
        while True:
            game_id = event.game_id or secrets.token_urlsafe(GAME_ID_BYTES)
            first = replace(event, game_id=game_id, seq=1)
            tracked = Tracked(apply(None, first))
            if self.store.append_event(game_id, event_record(first)):
                if follow is not None:  # the computer opens when it has White
                    tracked = self._follow(tracked, follow)
                self._save_head(tracked)
                return tracked.head, True
            if event.game_id:
                return self._load(game_id).head, False

    # ------------------------------------------------------------------------------------ actions
    def create(
        self,
        player: Player,
        game: str,
        color: str,
        options: dict[str, Any],
        fen: str | None,
        cpu_level: int | None = None,
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
        seat: Color = "white" if color == "white" else "black" if color == "black" else secrets.choice(COLORS)
        seats: dict[Color, Seat | None] = {seat: _seat(player), other(seat): None}
        invite = None
        if cpu_level is not None:
            seats[other(seat)] = Seat(None, None, cpu_name(cpu_level), cpu_level)
        else:
            invite = secrets.token_urlsafe(INVITE_BYTES)
        head, _ = self._create(
            Created(
                at=self.now_ms(),
                by=seat,
                game_id="",
                game=game,
                options={**rules.options, "days_per_move": days, "swap_colors": swap},
                start_fen=start_fen,
                white=seats["white"],
                black=seats["black"],
                invite_key=secret_hash(invite) if invite else None,
                max_plies=self.max_plies,
            ),
            follow=cpu_reply,
        )
        link = {"code": invite, "url": self.invite_url(head.id, invite)} if invite else None
        return Outcome(head, seat=seat, created=True, invite=link)

    def invite_url(self, game_id: str, invite: str, base: str | None = None) -> str:
        # The code travels in the fragment: browsers never send it to a server or in a Referer.
        return f"{(base if base is not None else self.site_url).rstrip('/')}/game/?id={game_id}#invite={invite}"

    def join(self, player: Player, game_id: str, invite: str) -> Outcome:
        joined: dict[str, Color] = {}

        def decide(head: GameHead) -> AnyEvent | None:
            seat = head.seat_of(player.token_hash)
            if seat is not None:
                if head.state == "waiting":
                    raise Conflict(
                        "you created this game; send the invite link to your opponent", code="own_game", game=head
                    )
                joined["seat"] = seat  # a retried join: the seat is already this player's
                return None
            if head.state != "waiting":
                raise Conflict("both seats are taken", code="game_full", game=head)
            if not token_matches(secret_hash(invite).hex(), head.invite_key):
                raise Forbidden("that invite code does not open this game", code="invalid_invite")
            open_seat = next(color for color in COLORS if head.seat(color) is None)
            joined["seat"] = open_seat
            return Joined(by=open_seat, seat=_seat(player))

        head = self._act(game_id, decide)
        return Outcome(head, seat=joined["seat"])

    def move(self, token_hash: str, game_id: str, text: str, ply: int) -> Outcome:
        def decide(head: GameHead) -> AnyEvent | None:
            color = _seat_or_refuse(head, token_hash)
            if ply < head.ply and _already_played(head, color, text, ply):
                return None  # the very move already accepted at that ply: a retry
            _refuse_unless_active(head)
            _refuse_if_computer_plays(head, color)
            if ply != head.ply:
                raise Conflict(
                    f"the game has moved on: {head.ply} moves are played, not {ply}; here it is",
                    code="stale_ply",
                    game=head,
                )
            if head.turn != color:
                raise Forbidden(f"it is {head.turn}'s move", code="not_your_turn")
            position = head.position()
            try:
                move = position.parse_move(text)
            except InvalidMove as refusal:
                raise IllegalMove(
                    str(refusal),
                    code=refusal.code,
                    reason=getattr(refusal, "reason", None),
                    legal_moves=position.legal_notations(),
                ) from None
            return Moved(by=color, move=position.notation(move), ply=ply + 1, fen=position.play(move).fen())

        return Outcome(self._act(game_id, decide, follow=cpu_reply))

    def resign(self, token_hash: str, game_id: str) -> Outcome:
        def decide(head: GameHead) -> AnyEvent | None:
            color = _seat_or_refuse(head, token_hash)
            if head.state == "finished" and head.reason == "resignation" and head.result == other(color):
                return None
            _refuse_unless_active(head)
            return Resigned(by=color)

        return Outcome(self._act(game_id, decide))

    def draw(self, token_hash: str, game_id: str, action: str) -> Outcome:
        def decide(head: GameHead) -> AnyEvent | None:
            color = _seat_or_refuse(head, token_hash)
            if head.state == "finished" and head.reason == "agreement" and action in ("offer", "accept"):
                return None
            _refuse_unless_active(head)
            offer = head.draw_offer
            if action == "offer":
                if offer == color:
                    return None  # already offered
                return DrawAccepted(by=color) if offer == other(color) else DrawOffered(by=color)
            if offer != other(color):
                raise Conflict("your opponent has not offered a draw", code="no_draw_offer", game=head)
            return DrawAccepted(by=color) if action == "accept" else DrawDeclined(by=color)

        return Outcome(self._act(game_id, decide))

    def claim_timeout(self, token_hash: str, game_id: str) -> Outcome:
        now = self.now_ms()

        def decide(head: GameHead) -> AnyEvent | None:
            color = _seat_or_refuse(head, token_hash)
            if head.state == "finished" and head.reason == "timeout":
                return None
            _refuse_unless_active(head)
            _refuse_unless_opponent_overdue(head, color, now, "only the side to move can run out of time")
            return TimeoutClaimed(by=color, at=now)

        return Outcome(self._act(game_id, decide))

    def cpu_takeover(self, token_hash: str, game_id: str) -> Outcome:
        """The computer plays on for the opponent, whose time ran out, at about the level of that player's own
        moves in this game (``estimate_level``); it moves at once (``follow``)."""
        now = self.now_ms()
        levels: dict[Color, int] = {}

        def level_of(head: GameHead, color: Color) -> int:
            if color not in levels:  # one read of the log, only once the takeover is allowed
                events = [event_from(item) for item in self.store.events_after(game_id, 0)]
                levels[color] = level_of_player(head, events, color)
            return levels[color]

        def decide(head: GameHead) -> AnyEvent | None:
            color = _seat_or_refuse(head, token_hash)
            absent = other(color)
            if head.computer_level(absent):
                return None  # the computer plays that seat already (a retry)
            _refuse_unless_active(head)
            _refuse_if_computer_plays(head, color)  # never the computer against itself
            _refuse_unless_opponent_overdue(
                head, color, now, "the computer can only take over for a side whose time ran out"
            )
            return ComputerTookOver(by=color, seat=absent, level=level_of(head, absent), at=now)

        return Outcome(self._act(game_id, decide, follow=cpu_reply))

    def resume(self, token_hash: str, game_id: str) -> Outcome:
        """The player takes back the seat the computer played for them."""

        def decide(head: GameHead) -> AnyEvent | None:
            color = _seat_or_refuse(head, token_hash)
            if not head.computer_level(color):
                return None  # the seat is the player's (a retry, or it was never taken over)
            _refuse_unless_active(head)
            return Resumed(by=color)

        return Outcome(self._act(game_id, decide, follow=cpu_reply))

    def rematch(self, token_hash: str, game_id: str) -> Outcome:
        seats: dict[str, Color] = {}

        def decide(head: GameHead) -> AnyEvent | None:
            seats["old"] = _seat_or_refuse(head, token_hash)
            if head.rematch:
                return None
            if head.state != "finished":
                raise Conflict("a rematch can start once this game is over", code="game_not_finished", game=head)
            return Rematched(by=seats["old"], game_id=secrets.token_urlsafe(GAME_ID_BYTES))

        old = self._act(game_id, decide)
        new, created = self._rematch_game(old)
        return Outcome(new, seat=new.seat_of(token_hash) or seats["old"], created=created)

    def _rematch_game(self, old: GameHead) -> tuple[GameHead, bool]:
        """The rematch game of ``old``, creating it if no one has yet; (game, whether this call created it).
        Of callers racing to create it, the conditional append lets exactly one say it did (201)."""
        assert old.rematch is not None
        if self.store.get_head(old.rematch) is not None:
            return self._load(old.rematch).head, False
        first = self.store.get_event(old.id, 1)
        swap = bool(old.options.get("swap_colors", True))
        seats: dict[Color, Seat | None] = {}
        for color in COLORS:
            source = old.seat(other(color) if swap else color)
            # The computer's own seat stays the computer's; a seat it only played on for its player does not.
            seats[color] = None if source is None else replace(source, cpu=source.cpu if source.is_computer else None)
        event = Created(
            at=old.updated,  # the rematch event's time: the same new game whoever creates it
            game_id=old.rematch,
            game=old.game,
            options=old.options,
            start_fen=first.get("start_fen") if first else None,
            white=seats["white"],
            black=seats["black"],
            rematch_of=old.id,
            max_plies=old.max_plies,
        )
        return self._create(event, follow=cpu_reply)

    # ---------------------------------------------------------------------------------- reading
    def get(self, game_id: str, if_none_match: str | None = None) -> tuple[GameHead, list[dict[str, Any]], str]:
        """The game, its log (as stored records) and its ETag; ``NotModified`` when the client's copy is current."""
        known = seq_from_etag(if_none_match)
        if known == -1:  # "If-None-Match: *": any copy will do while the game exists
            stored = self.store.get_head(game_id)
            if stored is not None:
                raise NotModified(etag_of(int(stored["seq"])))
        elif known is not None:
            # One small Query: the head and any event after the client's copy (a head behind its log
            # must not answer 304 for a game that has moved on).
            stored, newer = self.store.load(game_id, after_seq=known)
            if stored is not None and not newer and stored["seq"] == known:
                raise NotModified(etag_of(known))
        tracked, log = self._read_log(game_id)
        if tracked.head.computer_to_move:  # a crash left the computer's reply owed: make it now
            self._act(game_id, lambda _head: None, follow=cpu_reply)
            tracked, log = self._read_log(game_id)
        return tracked.head, log, etag_of(tracked.seq)

    def _read_log(self, game_id: str) -> tuple[Tracked, list[dict[str, Any]]]:
        """The head and the whole log in one Query; only events past the head are read and folded (no replay)."""
        stored, log = self.store.load(game_id)
        if stored is None or not log:
            return self._load_log(game_id, stored, log), log
        try:
            head = _usable_head(stored)
            newer = [event_from(record) for record in log if record["seq"] > head.seq]
            tracked = Tracked(apply_all(head, newer) if newer else head, stored_seq=head.seq)
        except DamagedHead:
            return self._load_log(game_id, stored, log), log
        self._repair(tracked)
        return tracked, log

    def export(self, game_id: str) -> tuple[GameHead, list[dict[str, Any]]]:
        """What the PGN or PDN of a game is made from: the head and the log's records."""
        tracked, log = self._read_log(game_id)
        return tracked.head, log

    def games_of(self, player: Player, status: str, cursor: str | None, limit: int) -> dict[str, Any]:
        """The player's games, newest activity first; active games where it is the player's turn first."""
        low, high = order_range(status)
        positions = read_cursor(cursor, status)
        fetched: dict[Color, list[dict[str, Any]]] = {}
        more: dict[Color, bool] = {}
        for color in COLORS:
            if positions[color] == "end":
                fetched[color], more[color] = [], False
            else:
                fetched[color], more[color] = self.store.games_of_player(
                    player.player_id, color, low, high, positions[color], limit
                )
        page: list[tuple[Color, dict[str, Any]]] = []
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
            "games": [summary_view(_listed(record), color) for color, record in page],
            "cursor": None if done else write_cursor(status, following),
        }


# ------------------------------------------------------------------------------------------ helpers
def _usable_head(record: dict[str, Any]) -> GameHead:
    """The head of a stored record whose position can be restored; ``DamagedHead`` otherwise."""
    head = head_from(record)
    head.position()
    return head


def _listed(record: dict[str, Any]) -> GameHead:
    try:
        return head_from(record)
    except DamagedHead:  # an older head format: the list needs no position, so read what it shows
        return head_from({**record, "fen": record.get("anchor_fen") or "", "memory": None})


def _seat(player: Player) -> Seat:
    return Seat(player.player_id, bytes.fromhex(player.token_hash), player.name)


def _seat_or_refuse(head: GameHead, token_hash: str) -> Color:
    color = head.seat_of(token_hash)
    if color is None:
        raise Forbidden("you hold no seat in this game", code="not_a_player")
    return color


def _refuse_if_computer_plays(head: GameHead, color: Color) -> None:
    if head.computer_level(color):
        raise Conflict(
            "the computer is playing your seat since your time ran out; resume the game to play again",
            code="computer_plays_your_seat",
            game=head,
        )


def _refuse_unless_active(head: GameHead) -> None:
    if head.state == "waiting":
        raise Conflict("the game starts when your opponent joins", code="game_not_started", game=head)
    if head.state == "finished":
        raise Conflict("the game is over", code="game_over", game=head)


def _refuse_unless_opponent_overdue(head: GameHead, color: Color, now: int, why: str) -> None:
    """Refuse (409) unless the opponent is to move and past their deadline."""
    if head.turn == color:
        raise Conflict(f"it is your move: {why}", code="your_move", game=head)
    if head.deadline is not None and now <= head.deadline:
        raise Conflict(f"your opponent has until {iso(head.deadline)} to move", code="deadline_not_passed", game=head)


def _already_played(head: GameHead, color: Color, text: str, ply: int) -> bool:
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
