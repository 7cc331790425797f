"""Every finished rated game is reviewed without anyone asking: the notify function, which reads every event
of the games table's stream, asks for the review of a rated game the event leaves finished, as a player's
``POST /v1/games/{id}/review`` would (docs/games.md, "Reviews").

Only the event that ended the game asks (``decide.ended_the_game``, the same test that sends "game over"), so
later events of the finished game (a rematch offer) cost nothing. Asking is idempotent: the review item is
stored ``pending`` only if none is there (a conditional write), and only the request that stored it sends the
game to the review queue, so a retried record asks for nothing more.
"""

from __future__ import annotations

from common.reviews.queue import ReviewQueue
from common.reviews.repository import ReviewRepository
from games.domain import AnyEvent

from notify.domain.decide import ended_the_game
from notify.domain.games import GameState


def wants_review(event: AnyEvent, state: GameState) -> bool:
    """A rated game with at least one move, and ``event`` the one that ended it."""
    return state.rated and state.ply > 0 and ended_the_game(event, state)


def ask_for_review(
    event: AnyEvent, state: GameState, reviews: ReviewRepository, queue: ReviewQueue, now_ms: int
) -> bool:
    """Ask for the game's review if it wants one; True when this call stored it (and sent it to the queue)."""
    if not wants_review(event, state) or not reviews.request(state.game_id, now_ms):
        return False
    queue.send(state.game_id)
    return True
