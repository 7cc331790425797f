"""Games by correspondence and at live tables: seats, moves, draws, deadlines, resignations, timeouts, rematches.

Each action is a ``decide`` function against the game's head: it refuses (``games.domain.refusals``), sees a retry,
or makes the event that its ``GameLog`` (``games.service.protocol``) appends under the game's lock."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from common.players.blocks import is_blocked
from common.players.repository import PlayerRepository
from common.players.service import Player
from common.web.ratelimit import RateLimiter

from games.domain import (
    COLORS,
    CPU_LEVELS,
    MAX_PLIES,
    Aborted,
    AnyEvent,
    Color,
    ComputerTookOver,
    Created,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    GameHead,
    Joined,
    Moved,
    RematchOffered,
    Resigned,
    Resumed,
    Seat,
    TimeoutClaimed,
    live,
    new_game_options,
    other,
    play_notation,
    rules_options,
    token_matches,
)
from games.domain.computer import LEVEL_WINDOW, cpu_name, cpu_reply, level_of_player
from games.domain.errors import (
    Conflict,
    Forbidden,
    GameNotFound,
    IllegalMove,
    InvalidGameOption,
    RatedNotAllowed,
)
from games.domain.fair_play import early_end
from games.domain.refusals import (
    already_played,
    refuse_if_computer_plays,
    refuse_if_turn_time_over,
    refuse_unless_active,
    refuse_unless_opponent_overdue,
    seat_or_refuse,
)
from games.domain.rematches import MEETING_EVENTS, RematchAction, rematch_created, rematch_event
from games.repository import GameRepository
from games.service import reads
from games.service.protocol import GameLog, RatingHooks, RecentHeads
from games.views.listing import list_games
from games.views.pages import MovePage
from shared_rules import InvalidMove, get_game
from shared_rules.errors import InvalidFen

INVITE_BYTES = 16  # 128 bits
LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX = 20, 50
MOVES_LIMIT_DEFAULT, MOVES_LIMIT_MAX = 100, 200


def secret_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode("utf-8")).digest()


@dataclass
class Outcome:
    """What an action returns: the game as it now stands, and the caller's seat."""

    head: GameHead
    seat: Color | None = None
    created: bool = False
    invite: dict[str, str] | None = None


#: ``known_seq`` of a client that holds some copy, whatever it is (``If-None-Match: *``).
ANY_COPY = -1


@dataclass(frozen=True)
class Unchanged:
    """The client's copy of a game is current: the game is still at ``seq`` (the handler answers 304)."""

    seq: int


class GamesService:
    """Every action on games; reading and writing through its ``GameLog``."""

    def __init__(
        self,
        store: GameRepository,
        clock: Callable[[], float] = time.time,
        site_url: str = "",
        max_plies: int = MAX_PLIES,
        limiter: RateLimiter | None = None,
        recent: RecentHeads | None = None,
        players: PlayerRepository | None = None,
        ratings: RatingHooks | None = None,
    ):
        self.store = store
        self.players = players  # whose blocks a rematch respects (None: no blocks are checked)
        self.log = GameLog(store, clock=clock, max_plies=max_plies, limiter=limiter, recent=recent, ratings=ratings)
        self.site_url = site_url.rstrip("/")

    # ------------------------------------------------------------------------------------ actions
    def create(
        self,
        player: Player,
        game: str,
        color: str,
        options: dict[str, Any],
        fen: str | None,
        cpu_level: int | None = None,
        rated: bool = False,
    ) -> Outcome:
        """A new game: the player takes a seat; the other is open (an invite) or the computer's (``cpu_level``).
        A ``rated`` game is refused (``RatedNotAllowed``) against the computer or from a custom position."""
        if cpu_level is not None and cpu_level not in CPU_LEVELS:
            raise InvalidGameOption(f"the computer's level must be one of {CPU_LEVELS[0]} to {CPU_LEVELS[-1]}")
        if rated and cpu_level is not None:
            raise RatedNotAllowed("a game against the computer is never rated")
        all_options = new_game_options(game, options, rated)
        rules = get_game(game, rules_options(all_options))
        start_fen = None
        if fen is not None:
            position = rules.from_fen(fen)
            if position.status().is_over:
                raise InvalidFen(f"the game would be over before it starts ({position.status().reason})")
            start_fen = None if position.fen() == rules.start().fen() else position.fen()
        if rated and start_fen is not None:
            raise RatedNotAllowed("a game from a custom position is never rated")
        seat: Color = "white" if color == "white" else "black" if color == "black" else secrets.choice(COLORS)
        seats: dict[Color, Seat | None] = {seat: _seat(player), other(seat): None}
        invite = None
        if cpu_level is not None:
            seats[other(seat)] = Seat(None, None, cpu_name(cpu_level), cpu_level)
        else:
            self.charge("games")  # a game between people; the computer's are charged by its time (``log.create``)
            invite = secrets.token_urlsafe(INVITE_BYTES)
        head, _ = self.log.create(
            Created(
                at=self.log.now_ms(),
                by=seat,
                game_id="",
                game=game,
                options=all_options,
                start_fen=start_fen,
                white=seats["white"],
                black=seats["black"],
                invite_key=secret_hash(invite) if invite else None,
                max_plies=self.log.max_plies,
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
            creator = head.seat(other(open_seat))
            if self.players is not None and creator and is_blocked(self.players, player.player_id, creator.key):
                raise Forbidden("the creator of this game blocked you", code="player_blocked")
            joined["seat"] = open_seat
            return Joined(by=open_seat, seat=_seat(player))

        head = self.log.act(game_id, decide)
        return Outcome(head, seat=joined["seat"])

    def move(self, token_hash: str, game_id: str, text: str, ply: int) -> Outcome:
        now = self.log.now_ms()

        def decide(head: GameHead) -> AnyEvent | None:
            color = seat_or_refuse(head, token_hash)
            if ply < head.ply and already_played(head, color, text, ply):
                return None  # the very move already accepted at that ply: a retry
            refuse_unless_active(head)
            refuse_if_turn_time_over(head, color, now)
            refuse_if_computer_plays(head, color)
            if ply != head.ply:
                raise Conflict(
                    f"the game has moved on: {head.ply} moves are played, not {ply}; here it is",
                    code="stale_ply",
                    game=head,
                )
            if head.turn != color:
                raise Forbidden(f"it is {head.turn}'s move", code="not_your_turn", reason="not_your_turn")
            position = head.position()
            try:
                played = play_notation(position, text)
            except InvalidMove as refusal:
                raise IllegalMove(
                    str(refusal),
                    code=refusal.code,
                    reason=refusal.reason,
                    legal_moves=position.legal_notations(),
                ) from None
            return Moved(by=color, move=played.notation, ply=ply + 1, fen=played.after.fen())

        return Outcome(self.log.act(game_id, decide, follow=cpu_reply))

    def resign(self, token_hash: str, game_id: str) -> Outcome:
        def decide(head: GameHead) -> AnyEvent | None:
            color = seat_or_refuse(head, token_hash)
            if head.state == "finished" and head.reason == "resignation" and head.result == other(color):
                return None
            if head.aborted:
                return None  # a rated game resigned before two moves a side was aborted: a retry
            refuse_unless_active(head)
            return early_end(head, Resigned(by=color))

        return Outcome(self.log.act(game_id, decide))

    def draw(self, token_hash: str, game_id: str, action: str) -> Outcome:
        def decide(head: GameHead) -> AnyEvent | None:
            color = seat_or_refuse(head, token_hash)
            if head.state == "finished" and head.reason == "agreement" and action in ("offer", "accept"):
                return None
            if head.aborted and action in ("offer", "accept"):
                return None  # agreed before two moves a side: the game was aborted (a retry)
            refuse_unless_active(head)
            offer = head.draw_offer
            if action == "offer":
                if offer == color:
                    return None  # already offered
                return early_end(head, DrawAccepted(by=color)) if offer == other(color) else DrawOffered(by=color)
            if offer != other(color):
                raise Conflict("your opponent has not offered a draw", code="no_draw_offer", game=head)
            return early_end(head, DrawAccepted(by=color)) if action == "accept" else DrawDeclined(by=color)

        return Outcome(self.log.act(game_id, decide))

    def claim_timeout(self, token_hash: str, game_id: str) -> Outcome:
        """A win on time; at a live table the computer plays on for the absent player instead (``games.domain.live``)."""
        now = self.log.now_ms()
        level_of = self._level_reader(game_id)

        def decide(head: GameHead) -> AnyEvent | None:
            color = seat_or_refuse(head, token_hash)
            if head.state == "finished" and head.reason in ("timeout", "aborted", "abandoned"):
                return None
            refuse_unless_active(head)
            refuse_unless_opponent_overdue(head, color, now, "only the side to move can run out of time")
            if head.turn_seconds is not None:
                return live.timeout_event(head, now, level_of)
            return early_end(head, TimeoutClaimed(by=color, at=now))

        return Outcome(self.log.act(game_id, decide, follow=cpu_reply))

    def cpu_takeover(self, token_hash: str, game_id: str) -> Outcome:
        """The computer plays on for the opponent, whose time ran out, at about the level of that player's own
        moves in this game (``estimate_level``); it moves at once (``follow``)."""
        now = self.log.now_ms()
        level_of = self._level_reader(game_id)

        def decide(head: GameHead) -> AnyEvent | None:
            color = seat_or_refuse(head, token_hash)
            absent = other(color)
            if head.computer_level(absent) or head.aborted:
                return None  # the computer plays that seat already, or the game was aborted (a retry)
            refuse_unless_active(head)
            refuse_if_computer_plays(head, color)  # never the computer against itself
            refuse_unless_opponent_overdue(
                head, color, now, "the computer can only take over for a side whose time ran out"
            )
            if head.unopened or (head.rated and head.abortable):  # never started, or barely played: aborted
                return live.no_show(head, now) if head.unopened else Aborted(by=color, at=now, reason="no_show")
            return ComputerTookOver(by=color, seat=absent, level=level_of(head, absent), at=now)

        return Outcome(self.log.act(game_id, decide, follow=cpu_reply))

    def abort(self, token_hash: str, game_id: str) -> Outcome:
        """End the game with no result and no rating change, while neither side has made two moves."""

        def decide(head: GameHead) -> AnyEvent | None:
            color = seat_or_refuse(head, token_hash)
            if head.aborted:
                return None  # a retry
            refuse_unless_active(head)
            if not head.abortable:
                raise Conflict(
                    "both sides have made two moves: the game can no longer be aborted; resign instead",
                    code="not_abortable",
                    game=head,
                )
            return Aborted(by=color)

        return Outcome(self.log.act(game_id, decide))

    def open(self, token_hash: str, game_id: str) -> Outcome:
        """The player's page opened the live table; the first turn's clock starts once both have (``live``)."""
        return Outcome(self.log.act(game_id, lambda head: live.opened(head, seat_or_refuse(head, token_hash))))

    def _level_reader(self, game_id: str) -> live.LevelOf:
        """The level of a player's own moves in the game, read from the log once it is asked for."""
        levels: dict[Color, int] = {}

        def level_of(head: GameHead, color: Color) -> int:
            if color not in levels:  # one read of the log's last events, only once a takeover is decided
                recent = self.store.events_after(game_id, max(0, head.seq - LEVEL_WINDOW))
                levels[color] = level_of_player(head, recent, color)
            return levels[color]

        return level_of

    def settle(self, game_id: str, now: int | None = None) -> GameHead:
        """What the server's clock owes a game: the computer playing on for a live turn that ran out
        (``games.domain.live``), and the computer's reply a crash left owed. Conditional appends: one writer wins."""
        at = self.log.now_ms() if now is None else now
        level_of = self._level_reader(game_id)
        return self.log.act(game_id, lambda head: live.timeout_event(head, at, level_of), follow=cpu_reply)

    def resume(self, token_hash: str, game_id: str) -> Outcome:
        """The player takes back the seat the computer played for them."""

        def decide(head: GameHead) -> AnyEvent | None:
            color = seat_or_refuse(head, token_hash)
            if not head.computer_level(color):
                return None  # the seat is the player's (a retry, or it was never taken over)
            refuse_unless_active(head)
            return Resumed(by=color)

        return Outcome(self.log.act(game_id, decide, follow=cpu_reply))

    def rematch(self, token_hash: str, game_id: str, action: RematchAction = "offer") -> Outcome:
        """Offer, accept, decline or withdraw a rematch (``games.domain.rematches``): the new game is made when the
        rematch is agreed; the answer is then the new game, else the old one."""
        seats: dict[str, Color] = {}

        def decide(head: GameHead) -> AnyEvent | None:
            seats["old"] = seat_or_refuse(head, token_hash)
            event = rematch_event(head, seats["old"], action)
            if isinstance(event, MEETING_EVENTS):
                self._refuse_if_either_blocked(head)
            if isinstance(event, RematchOffered):  # charged before it is written: a refusal (429) writes nothing
                self.log.limiter.charge("rematch")
            return event

        old = self.log.act(game_id, decide)
        if old.rematch is None or action in ("decline", "withdraw"):
            return Outcome(old, seat=seats["old"])
        new, created = self._rematch_game(old)
        return Outcome(new, seat=new.seat_of(token_hash) or seats["old"], created=created)

    def _refuse_if_either_blocked(self, head: GameHead) -> None:
        white, black = head.white, head.black
        if self.players is None or white is None or black is None:
            return
        if is_blocked(self.players, white.player_id, black.key) or is_blocked(self.players, black.player_id, white.key):
            raise Forbidden("one of you blocked the other", code="player_blocked")

    def _rematch_game(self, old: GameHead) -> tuple[GameHead, bool]:
        """The rematch game of ``old``, creating it if no one has yet; (game, whether this call created it).
        Of callers racing to create it, the conditional append lets exactly one say it did (201)."""
        assert old.rematch is not None
        if self.store.get_head(old.rematch) is not None:
            return self.log.load(old.rematch).head, False
        first = self.store.get_event(old.id, 1)
        event = rematch_created(old, first.start_fen if isinstance(first, Created) else None)
        return self.log.create(event, follow=cpu_reply)

    # ---------------------------------------------------------------------------------- reading
    def head(self, game_id: str) -> GameHead:
        """The game as it stands (one read); ``GameNotFound`` when there is none."""
        return self.log.load(game_id).head

    def charge(self, limit: str) -> None:
        """Take one token of ``limit`` for the current request's player and address (``RateLimited``: 429)."""
        self.log.limiter.charge(limit)

    def get(
        self, game_id: str, known_seq: int | None = None, moves_after: int | None = None
    ) -> tuple[GameHead, MovePage, int] | Unchanged:
        """The game, a page of its latest moves (those after ``moves_after`` when given) and the seq it is at; or
        ``Unchanged`` when the client's copy (at ``known_seq``; ``ANY_COPY``: whatever it is) is still current.
        At most three store calls at any length; a live turn that ran out is settled first (``settle``), by
        whichever reader sees it first."""
        now = self.log.now_ms()
        known = known_seq
        if known == ANY_COPY:  # "If-None-Match: *": any copy will do while the game exists
            stored = self.store.get_head(game_id)
            if stored is not None and not stored.turn_over(now):
                return Unchanged(stored.seq)
        elif known is not None:
            # One small Query: the head and any event after the client's copy (a head behind its log
            # must not answer 304 for a game that has moved on).
            stored, newer = self.store.load(game_id, after_seq=known)
            if stored is not None and not newer and stored.seq == known and not stored.turn_over(now):
                return Unchanged(known)
        tracked, events = reads.read_latest(self.log, game_id, moves_after)
        if tracked.head.seek is not None and tracked.head.seek.state != "taken":
            raise GameNotFound(f"there is no game {game_id}")  # an open or withdrawn challenge of the lobby
        if tracked.head.computer_to_move or tracked.head.turn_over(now):  # a reply owed, or a live turn run out
            self.settle(game_id, now)
            tracked, events = reads.read_latest(self.log, game_id, moves_after)
        return tracked.head, reads.page_of(self.log, game_id, tracked.head, events, moves_after), tracked.seq

    def moves_before(self, game_id: str, before_seq: int | None, limit: int, positions: bool = False) -> MovePage:
        """Older moves, a page at a time (``games.service.reads.moves_before``)."""
        return reads.moves_before(self.log, game_id, before_seq, limit, positions)

    def export(self, game_id: str) -> tuple[GameHead, list[AnyEvent]]:
        """What the PGN or PDN of a game is made from: the head and the log."""
        tracked, log = reads.read_log(self.log, game_id)
        return tracked.head, log

    def games_of(self, player: Player, status: str, cursor: str | None, limit: int) -> dict[str, Any]:
        """The player's games, newest activity first; active games where it is the player's turn first."""
        return list_games(self.store, player.player_id, status, cursor, limit)


# ------------------------------------------------------------------------------------------ helpers
def _seat(player: Player) -> Seat:
    return Seat(player.player_id, bytes.fromhex(player.token_hash), player.name)
