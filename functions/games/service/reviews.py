"""Asking for a game's review and reading it: the service behind the review routes (docs/games.md, "Reviews").

``POST /v1/games/{id}/review`` (either player, 202): a finished game's review is stored as pending with a
conditional write and sent to the review queue; a second request, from either player, finds it and starts
nothing. A review pending for longer than ``RESEND_AFTER_MS`` (its message lost, or dead-lettered) is sent
again: the review function stores one result whatever it is sent. The first request also appends
``ReviewAsked`` to the game's log, so the game's view says there is a review to read (``review``: the page
asks for it only then) at no cost to the game's reads. ``GET /v1/games/{id}/review`` is public, like the
game; a rated game's review, which the notify function asks for by itself once the game ends, reads as
pending until notify has stored it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from common.clock import Clocked
from common.errors import DomainError
from common.reviews.queue import ReviewQueue
from common.reviews.repository import ReviewRepository, StoredReview, review_record
from common.web.depends import Clock
from common.web.ratelimit import RateLimiter

from games.domain import Color, GameHead, ReviewAsked
from games.domain.errors import Conflict, GameNotFound
from games.domain.refusals import seat_or_refuse
from games.repository import GameRepository
from games.service.protocol import GameLog

#: A review still pending after this long is sent to the queue again when asked for (a review takes seconds).
RESEND_AFTER_MS = 15 * 60 * 1000


class ReviewNotFound(DomainError, code="review_not_found"): ...


@dataclass(eq=False)
class ReviewRequests(Clocked):
    """A game's review asked for (stored pending once, queued, sent again when lost) and read."""

    games: GameRepository
    reviews: ReviewRepository
    queue: ReviewQueue
    clock: Clock
    limiter: RateLimiter | None = None

    def ask(self, token_hash: str, game_id: str) -> StoredReview:
        head = self.games.get_head(game_id)
        if head is None:
            raise GameNotFound(f"there is no game {game_id!r}")
        color = seat_or_refuse(head, token_hash)
        if head.state != "finished":
            raise Conflict("a game is reviewed once it is over", code="game_not_finished", game=head)
        if self.limiter is not None:  # charged before anything is written: a flood of requests is a 429
            self.limiter.charge("reviews")
        now_ms = self.now_ms()
        if self.reviews.request(game_id, now_ms):
            self.queue.send(game_id)
        stored = self.reviews.get(game_id)
        assert stored is not None, "a review just stored or found is there"
        if stored.status == "pending" and now_ms - stored.requested > RESEND_AFTER_MS:
            self.queue.send(game_id)
        if not head.review_asked:  # after the review is stored: the view never names a review not there
            GameLog(self.games, clock=self.clock).act(game_id, lambda head: _review_asked(head, color))
        return stored

    def read(self, game_id: str) -> StoredReview:
        stored = self.reviews.get(game_id)
        if stored is not None:
            return stored
        head = self.games.get_head(game_id)  # only on a miss: a rated game's review may not be stored yet
        if head is not None and head.review() == "asked":
            return StoredReview(game_id, "pending", requested=head.updated)
        raise ReviewNotFound("no review of this game has been asked for")


def _review_asked(head: GameHead, color: Color) -> ReviewAsked | None:
    return None if head.review_asked else ReviewAsked(by=color)


def review_view(stored: StoredReview) -> dict[str, Any]:
    if stored.status != "done" or stored.result is None:
        return {"status": "pending", "moves": [], "accuracy": None, "start": None, "puzzles": None}
    return {"status": "done", **review_record(stored.result)}
