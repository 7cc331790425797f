"""Every finished rated game is reviewed without anyone asking: the notify function, which reads every event
of the games table's stream, asks for the review of a rated game the event leaves finished, as a player's
``POST /v1/games/{id}/review`` would (docs/games.md, "Reviews").

Asking is idempotent: the review item is stored ``pending`` only if none is there (a conditional write), and
only the request that stored it sends the game to the review queue, so a retried record or a later event of
the same finished game (a rematch offer) asks for nothing more.
"""

from __future__ import annotations

from review.queue import ReviewQueue
from review.repository import ReviewRepository

from notify.games import GameState


def wants_review(state: GameState) -> bool:
    """A rated game with at least one move that this event (not a later one) leaves finished."""
    return state.state == "finished" and state.rated and state.ply > 0 and not state.later


def ask_for_review(state: GameState, reviews: ReviewRepository, queue: ReviewQueue, now_ms: int) -> bool:
    """Ask for the game's review if it wants one; True when this call stored it (and sent it to the queue)."""
    if not wants_review(state) or not reviews.request(state.game_id, now_ms):
        return False
    queue.send(state.game_id)
    return True
