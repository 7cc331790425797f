"""A challenge's push to its receiver, through the notify function's ``Pushes`` (the receiver's subscriptions, in
each one's language), opening the community page where the challenge waits. Never an error: the challenge is
stored, and the friends strip shows it whether the push went or not."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger

from community.challenges.domain import Challenge

if TYPE_CHECKING:
    from notify.handler import Pushes

logger = Logger(child=True)


class ChallengePush:
    def __init__(self, pushes: Callable[[], Pushes]):
        self.pushes = pushes

    def challenged(self, challenge: Challenge) -> None:
        from notify.domain.decide import Notice

        notice = Notice(
            player_id=challenge.receiver.player_id,
            kind="your_move",
            message="challenged",
            game_id=challenge.id,
            game=challenge.game,
            opponent=challenge.sender.name,
            opponent_is_computer=False,
            tag=f"challenge:{challenge.id}",
            page=f"jamii/#challenge={challenge.id}",
        )
        try:
            self.pushes().notifier().deliver(notice)
        except Exception:  # the challenge is stored and listed: a push that cannot go is only logged
            logger.exception("challenge push not sent", extra={"challenge_id": challenge.id})
