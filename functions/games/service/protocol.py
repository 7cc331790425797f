"""The write protocol every change of a game follows, over a ``GameRepository`` and a clock.

A game is an append-only **event log** and a **head**, the fold of the log kept so that a request reads one
small item (``games.domain``). Every change follows one protocol (docs/games.md explains why it is safe):

1. read the head (one read);
2. decide, against the head, what event the request makes, or refuse it (nothing written);
3. append the event at ``seq + 1`` with a condition that no event has that number: the game's lock;
4. store the new head, with a condition that only lets the head move forward.

A request that loses step 3 to another reads the events it missed, folds them and decides again (a stale
``ply`` is then a 409, a retried move a 200). A crash between 3 and 4 loses nothing: whoever reads the game
next folds the missing events into the head. The service depends on a ``GameRepository``, a clock and a
``RateLimiter`` only, and may be given ``RecentHeads``, the heads this instance last read or wrote: a change
then starts from the kept head instead of step 1, since step 3 refuses a head that is behind its log.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from aws_lambda_powertools import Logger
from common.clock import Clocked
from common.persistence.deadline import StoreUnavailable
from common.web import metrics
from common.web.ratelimit import MemoryBuckets, RateLimiter

from games.domain import (
    GAME_ID_BYTES,
    MAX_PLIES,
    AnyEvent,
    Created,
    DamagedHead,
    GameHead,
    Moved,
    Tracked,
    apply,
    apply_all,
)
from games.domain.errors import Conflict, Forbidden, GameNotFound, IllegalMove
from games.domain.rating_change import RatingChange
from games.history.domain import Listing, listings_of
from games.repository import GameRepository
from games.watch.domain import on_air

logger = Logger(child=True)

MAX_ROUNDS = 5  # attempts to append before giving up under extreme contention (503, the client retries)

Decide = Callable[[GameHead], AnyEvent | None]
Follow = Callable[[GameHead], Moved | None]


class RatingHooks(Protocol):
    """What the write protocol asks of game ratings (``games.ratings.service.GameRatings``)."""

    def change_for(self, ended: GameHead) -> RatingChange | None: ...

    def settle(self, head: GameHead) -> None: ...

    def count_results(self, head: GameHead) -> None: ...

    def pairing_counts(self, started: GameHead) -> bool: ...

    def seat_ratings(self, started: GameHead) -> tuple[int, int] | None: ...


class RecentHeads:
    """The heads of the games this instance last read or wrote (at most ``size``, the least recent dropped).

    A change of a game may start from the kept head rather than read it (it saves one DynamoDB call of three,
    a round trip on AWS), because nothing it decides is trusted on the kept head alone: its append at
    ``seq + 1`` succeeds only if the log has exactly ``seq`` events, that is only if the kept head is the
    game's current one; a lost append, a refusal and a "nothing to do" each read what the log has past it
    first. Reads (``GET``) never answer from here: another instance may have moved the game on. This relies on
    logs that only grow: nothing deletes a game or an event (a store wiped under a running instance is not
    a case the API serves).
    """

    def __init__(self, size: int = 256):
        self.size = size
        self._heads: OrderedDict[str, GameHead] = OrderedDict()
        self._lock = threading.Lock()  # the local runner serves requests on threads of one process

    def get(self, game_id: str) -> GameHead | None:
        with self._lock:
            head = self._heads.get(game_id)
            if head is not None:
                self._heads.move_to_end(game_id)
            return head

    def keep(self, head: GameHead) -> None:
        """Keep ``head`` unless a newer head of its game is kept already."""
        with self._lock:
            kept = self._heads.get(head.id)
            if kept is None or kept.seq <= head.seq:
                self._heads[head.id] = head
                self._heads.move_to_end(head.id)
            while len(self._heads) > self.size:
                self._heads.popitem(last=False)


class GameLog(Clocked):
    """A game's log and head behind a ``GameRepository``: reading, the write protocol, repairs. The games
    service (``games.service``) holds one and runs every action through it."""

    def __init__(
        self,
        store: GameRepository,
        clock: Callable[[], float] = time.time,
        max_plies: int = MAX_PLIES,
        limiter: RateLimiter | None = None,
        recent: RecentHeads | None = None,
        ratings: RatingHooks | None = None,
    ):
        self.store = store
        self.recent = recent
        self.ratings = ratings
        self.clock = clock
        #: The per-client limits on the computer's moves; without one, buckets in this process on the same clock.
        self.limiter = limiter or RateLimiter(MemoryBuckets(), clock)
        self.max_plies = max_plies

    # ---------------------------------------------------------------------------- reading a game
    def load(self, game_id: str) -> Tracked:
        """The game at its head: one read, or the log when the head cannot give its position."""
        stored = self.store.get_head(game_id)
        if stored is None:
            return self.load_log(game_id)
        try:
            head = usable_head(stored)
        except DamagedHead:
            return self.load_log(game_id)
        self.remember(head)
        return Tracked(head, stored_seq=head.seq)

    def remember(self, head: GameHead) -> None:
        if self.recent is not None:
            self.recent.keep(head)

    def _start(self, game_id: str, read: GameHead | None = None) -> tuple[Tracked, bool]:
        """The game a change starts from: the head the caller has just read (strongly consistent, with something
        else in the same call), else the head this instance keeps, else one read; (game, whether kept)."""
        if read is not None:
            return Tracked(read, stored_seq=read.seq), False
        kept = self.recent.get(game_id) if self.recent is not None else None
        if kept is None:
            return self.load(game_id), False
        return Tracked(kept, stored_seq=kept.seq), True

    def load_log(self, game_id: str, stored: GameHead | None = None, log: list[AnyEvent] | None = None) -> Tracked:
        """The game folded from its whole log (the head repaired if it was behind). Only for a head that is
        missing or cannot be read: the one path that replays moves."""
        if log is None:
            stored, log = self.store.load(game_id)
        if not log:
            raise GameNotFound(f"there is no game {game_id}")
        # A stored head without its position (an older layout) counts as none: this one is written over it.
        stored_seq = stored.seq if stored is not None and stored.position_known else 0
        tracked = Tracked(apply_all(None, log), stored_seq=stored_seq, events=log)
        self.repair(tracked)
        return tracked

    def catch_up(self, tracked: Tracked) -> tuple[Tracked, bool]:
        """The game with the events appended after it; (game, whether there were any)."""
        newer = self.store.events_after(tracked.head.id, tracked.seq)
        if not newer:
            return tracked, False
        try:
            return Tracked(apply_all(tracked.head, newer), tracked.stored_seq), True
        except DamagedHead:
            return self.load_log(tracked.head.id), True

    def repair(self, tracked: Tracked) -> None:
        """Store the head if the stored one is behind the log (after a crash between the two writes)."""
        if tracked.seq > tracked.stored_seq:
            self._save_head(tracked)

    def _save_head(self, tracked: Tracked, before: tuple[Listing, ...] | None = None) -> None:
        """Store the head, and first the players' listings of the game when they changed (``before``: the game's
        listings before this change; None when not known, as in a repair). Listings before the head: a stored
        head is never ahead of its listings, and a repair of the head writes them again."""
        try:
            listings = listings_of(tracked.head)
            if before is None or listings != before:
                self.store.save_listings([listing.record(tracked.head.seq) for listing in listings])
            self.store.save_head(tracked.head)
            tracked.stored_seq = max(tracked.stored_seq, tracked.seq)
            self.remember(tracked.head)
        except StoreUnavailable:
            # The event is committed; the head catches up on the next read (see docs/games.md).
            logger.warning("head not saved; a later read repairs it", extra={"game_id": tracked.head.id})

    # ------------------------------------------------------------------------- the write protocol
    def act(self, game_id: str, decide: Decide, follow: Follow | None = None, read: GameHead | None = None) -> GameHead:
        """Run ``decide`` against the game and append the event it returns (see the module docstring).

        ``follow`` (the computer's reply) may answer the new head with one more event, appended the same way
        before the head is stored; it also runs first, when the game is waiting for it (a crash left it owed).
        A rated game's end is settled (each player's rating changed, exactly once) before the answer, also
        when the request is a retry of what ended it; so is any game's end in the players' wins, draws and
        losses. ``read``: the head as the caller has just read it.
        """
        head = self._act(game_id, decide, follow, read)
        if self.ratings is not None and head.rating_change is not None:
            self.ratings.settle(head)
        if self.ratings is not None and head.state == "finished":
            self.ratings.count_results(head)
        return head

    def _act(self, game_id: str, decide: Decide, follow: Follow | None, read: GameHead | None) -> GameHead:
        tracked, kept = self._start(game_id, read)
        # The listings stored now: those of the head this change starts from (its listings were stored before it).
        # They only ever move one way (a seat taken, the end), so equal listings here and after mean the stored
        # ones are right whatever happened between (``_save_head``).
        before = listings_of(tracked.head)
        if follow is not None:
            if tracked.head.state == "active":  # charged before anything is written: a refusal (429) writes nothing
                self.limiter.charge_computer(tracked.head.game, (tracked.head.white, tracked.head.black))
            tracked = self.follow(tracked, follow)
        caught_up = False
        for _ in range(MAX_ROUNDS):
            try:
                event = decide(tracked.head)
            except (Conflict, Forbidden, IllegalMove):
                # A head behind its log (a crash between the writes) must not refuse what the log allows.
                if caught_up:
                    raise
                tracked, changed = self.catch_up(tracked)
                caught_up = True
                if not changed:
                    raise
                continue
            if event is None:  # nothing to do: a retry of what is already done
                if kept and not caught_up:  # a kept head may be behind the log: answer with the game as it is
                    tracked, _ = self.catch_up(tracked)
                    caught_up = True
                    continue
                if follow is not None:
                    tracked = self.follow(tracked, follow)
                self.repair(tracked)
                return tracked.head
            event = replace(event, seq=tracked.seq + 1, at=event.at or self.now_ms())
            new = Tracked(apply(tracked.head, event), tracked.stored_seq)  # an event that cannot fold is never stored
            event, new = self._rated(tracked, event, new)
            event, new = self._paired(tracked, event, new)
            event, new = self._on_air(tracked, event, new)
            if self.store.append_event(game_id, event):
                metrics.game_event(event.kind, tracked.head.state, new.head.state)
                if follow is not None:
                    new = self.follow(new, follow)
                self._save_head(new, before)
                return new.head
            tracked, _ = self.catch_up(tracked)
            caught_up = True
        raise StoreUnavailable("the game is too busy right now; try again")

    def follow(self, tracked: Tracked, follow: Follow) -> Tracked:
        """Append the event ``follow`` makes (the computer's move), if any: the game after it.

        Its append is conditional like any other. Losing it means another request appended at that number
        (the same computer move, seeded by game and ply, or a newer event): the game catches up instead.
        A store failure leaves the reply owed; the next request on the game makes it (see docs/games.md).
        """
        reply = follow(tracked.head)
        if reply is None:
            return tracked
        reply = replace(reply, seq=tracked.seq + 1, at=self.now_ms())
        new = Tracked(apply(tracked.head, reply), tracked.stored_seq)
        event, new = self._rated(tracked, reply, new)  # the computer's move may end a game it took over
        try:
            if self.store.append_event(tracked.head.id, event):
                metrics.game_event(event.kind, tracked.head.state, new.head.state)
                return new
            return self.catch_up(tracked)[0]
        except StoreUnavailable:
            logger.warning("the computer's reply is owed; the next request makes it", extra={"game_id": new.head.id})
            return tracked

    def _rated(self, tracked: Tracked, event: AnyEvent, new: Tracked) -> tuple[AnyEvent, Tracked]:
        """The event that ends a rated game, carrying its rating change: of the requests racing to end the game
        only one appends its ending event, so the change is fixed once (``games.ratings.service``)."""
        ends = new.head.state == "finished" and tracked.head.state != "finished"
        if self.ratings is None or not ends or not new.head.rated:
            return event, new
        change = self.ratings.change_for(new.head)
        return (event, new) if change is None else _stamped(tracked, event, rating_change=change)

    def _paired(self, tracked: Tracked | None, event: AnyEvent, new: Tracked) -> tuple[AnyEvent, Tracked]:
        """The event that starts a rated game between two players, made casual when the pair has had its rated
        games of this game for the day (``GameRatings.pairing_counts``: a claim kept by game id, so a retry or a
        lost round claims nothing more)."""
        was_on = tracked is not None and tracked.head.state != "waiting"
        players = all(seat is not None and seat.player_id for seat in (new.head.white, new.head.black))
        if self.ratings is None or was_on or new.head.state != "active" or not new.head.rated or not players:
            return event, new
        if self.ratings.pairing_counts(new.head):
            return event, new
        return _stamped(tracked, event, casual=True)

    def _on_air(self, tracked: Tracked, event: AnyEvent, new: Tracked) -> tuple[AnyEvent, Tracked]:
        """The event that seats the second player at a public live table, carrying both players' ratings in the
        game (one read of the ratings, only then): Tazama lists the top-rated tables first from the index alone."""
        starts = tracked.head.state == "waiting" and on_air(new.head) and new.head.turn_seconds is not None
        if self.ratings is None or not starts:
            return event, new
        ratings = self.ratings.seat_ratings(new.head)
        return (event, new) if ratings is None else _stamped(tracked, event, seat_ratings=ratings)

    def create(self, event: Created, follow: Follow | None = None) -> tuple[GameHead, bool]:
        """Append a new game's first event under a fresh id (drawn again on the rare collision); (head, created).
        With a given id (a rematch), a game that exists already is read instead: only one caller creates it."""
        if follow is not None:  # a game against the computer, charged before it is written (a 429 writes nothing)
            self.limiter.charge_computer(event.game, (event.white, event.black))
        while True:
            game_id = event.game_id or secrets.token_urlsafe(GAME_ID_BYTES)
            first = replace(event, game_id=game_id, seq=1)
            tracked = Tracked(apply(None, first))
            casual, tracked = self._paired(None, first, tracked)  # a rematch starts with both seats taken
            first = casual if isinstance(casual, Created) else first
            if self.store.append_event(game_id, first):
                metrics.game_event(first.kind, None, tracked.head.state)
                if follow is not None:  # the computer opens when it has White
                    tracked = self.follow(tracked, follow)
                self._save_head(tracked, ())
                return tracked.head, True
            if event.game_id:
                return self.load(game_id).head, False


def usable_head(head: GameHead) -> GameHead:
    """``head`` if its position can be restored; ``DamagedHead`` otherwise."""
    head.position()
    return head


def _stamped(tracked: Tracked | None, event: AnyEvent, **stamp: Any) -> tuple[AnyEvent, Tracked]:
    """``event`` carrying ``stamp`` (a rating change, ``casual``, the seats' ratings), folded again onto the head
    it follows."""
    event = replace(event, **stamp)
    return event, Tracked(apply(tracked.head if tracked else None, event), tracked.stored_seq if tracked else 0)
