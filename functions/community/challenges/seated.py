"""The games function's parts as the challenges' hooks: an accepted challenge's game is made by the games' own
write protocol (``GameLog.create`` with the game's id fixed when it was accepted: made once however often an
accept is retried), with the options checked as a new game's."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

from games.domain import GAME_ID_BYTES, Created, Seat, new_game_options
from games.service.protocol import GameLog

from community.challenges.domain import Challenge, Challenger


class ChallengeGames:
    """``GameMaker`` over the games table."""

    def __init__(self, log: GameLog):
        self.log = log

    def options(self, game: str, options: Mapping[str, Any], rated: bool) -> dict[str, Any]:
        return new_game_options(game, options, rated)

    def new_id(self) -> str:
        return secrets.token_urlsafe(GAME_ID_BYTES)

    def make(self, challenge: Challenge) -> None:
        assert challenge.game_id is not None and challenge.answered is not None
        sender_white = sender_plays_white(challenge)
        white, black = (
            (challenge.sender, challenge.receiver) if sender_white else (challenge.receiver, challenge.sender)
        )
        event = Created(
            at=challenge.answered,
            game_id=challenge.game_id,
            game=challenge.game,
            options=dict(challenge.options),
            white=_seat(white),
            black=_seat(black),
            max_plies=self.log.max_plies,
        )
        self.log.create(event)


def sender_plays_white(challenge: Challenge) -> bool:
    """The sender's seat as asked; "random" drawn from the challenge's id, so every retry draws the same."""
    if challenge.color != "random":
        return challenge.color == "white"
    return hashlib.sha256(challenge.id.encode()).digest()[0] % 2 == 0


def _seat(side: Challenger) -> Seat:
    return Seat(side.player_id, bytes.fromhex(side.token_hash), side.name)
