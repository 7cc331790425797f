"""Direct challenges' actions: send one to a friend, answer it (accept: the game is made; decline), withdraw it,
and list a player's. Consent as for rematches: no game without the receiver's yes. A block overrides
everything: no challenge either way, and an open one can no longer be accepted once either side blocks."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from common.clock import Clocked
from common.players.blocks import is_blocked
from common.players.domain import Player
from common.players.repository import PlayerRepository

from community.challenges.domain import (
    MAX_OPEN_CHALLENGES,
    AlreadyChallenged,
    Challenge,
    ChallengeAction,
    ChallengeClosed,
    ChallengeNotFound,
    Challenger,
    ColorChoice,
    NotAFriend,
    TooManyChallenges,
)
from community.challenges.repository import ChallengeRepository
from community.domain import YouBlockedPlayer
from community.repository import CommunityRepository

CHALLENGE_ID_BYTES = 9  # 12 URL-safe characters


class GameMaker(Protocol):
    def options(self, game: str, options: Mapping[str, Any], rated: bool) -> dict[str, Any]:
        """Every option of a new game, defaults filled in; the games' own refusal (422) for a bad one."""
        ...

    def new_id(self) -> str: ...

    def make(self, challenge: Challenge) -> None:
        """Make the accepted challenge's game under its ``game_id`` (made once however often it is retried)."""
        ...


class Announcer(Protocol):
    def challenged(self, challenge: Challenge) -> None:
        """Tell the receiver (a push); a push that cannot go is dropped, never an error."""
        ...


@dataclass
class Challenges(Clocked):
    repository: ChallengeRepository
    community: CommunityRepository
    players: PlayerRepository
    games: GameMaker
    announcer: Announcer
    clock: Callable[[], float] = time.time

    def _as_challenger(self, player: Player) -> Challenger:
        return Challenger(player.player_id, player.name, player.token_hash)

    def send(
        self, player: Player, friend_id: str, game: str, options: Mapping[str, Any], rated: bool, color: ColorChoice
    ) -> Challenge:
        card = self.community.card(friend_id)
        friends = friend_id in self.community.followers(player.player_id) and friend_id in {
            follow.player_id for follow in self.community.follows(player.player_id)
        }
        if card is None or friend_id == player.player_id or not friends:
            raise NotAFriend("a direct challenge goes to a friend: a player you follow who follows you")
        if player.blocked(friend_id):
            raise YouBlockedPlayer("you blocked this player: remove the block first")
        if is_blocked(self.players, player.player_id, card.token_hash):
            raise NotAFriend("a direct challenge goes to a friend: a player you follow who follows you")
        checked = self.games.options(game, options, rated)
        now = self.now_ms()
        out = [sent for sent in self.repository.sent_by(player.player_id) if sent.status(now) == "open"]
        if any(sent.receiver.player_id == friend_id for sent in out):
            raise AlreadyChallenged("you have challenged this friend already: wait for the answer or withdraw it")
        if len(out) >= MAX_OPEN_CHALLENGES:
            raise TooManyChallenges(f"at most {MAX_OPEN_CHALLENGES} challenges wait for an answer at once")
        challenge = Challenge(
            id=secrets.token_urlsafe(CHALLENGE_ID_BYTES),
            sender=self._as_challenger(player),
            receiver=Challenger(card.player_id, card.name, card.token_hash),
            game=game,
            options=checked,
            rated=rated,
            color=color,
            at=now,
        )
        self.repository.add(challenge)
        self.announcer.challenged(challenge)
        return challenge

    def answer(self, player: Player, challenge_id: str, action: ChallengeAction) -> Challenge:
        """Accept or decline a challenge received, or withdraw one sent; a retry of what is done answers the same."""
        found: Challenge | None
        if action == "withdraw":
            sent = self.repository.sent(player.player_id, challenge_id)
            if sent is None:
                raise ChallengeNotFound("you sent no challenge with this id")
            found = self.repository.received(sent.receiver.player_id, challenge_id) or sent
        else:
            found = self.repository.received(player.player_id, challenge_id)
        if found is None or (action != "withdraw" and self._blocked_by_sender(player, found)):
            raise ChallengeNotFound("you have no challenge with this id")
        return self._decide(player, found, action)

    def _blocked_by_sender(self, player: Player, challenge: Challenge) -> bool:
        return is_blocked(self.players, player.player_id, challenge.sender.token_hash)

    def _decide(self, player: Player, challenge: Challenge, action: ChallengeAction) -> Challenge:
        now = self.now_ms()
        done = {"accept": "accepted", "decline": "declined", "withdraw": "withdrawn"}[action]
        if challenge.state == done:
            return self._made(challenge)  # a retry: the same answer (and the game, made once)
        if challenge.status(now) != "open":
            raise ChallengeClosed(f"this challenge is {challenge.status(now)}: nothing more can be done with it")
        if action == "accept" and player.blocked(challenge.sender.player_id):
            raise YouBlockedPlayer("you blocked this player: remove the block first")
        answered = challenge.answer(action, self.games.new_id() if action == "accept" else None, now)
        if not self.repository.answer(answered):  # answered meanwhile: whoever was first decided
            stored = self.repository.received(challenge.receiver.player_id, challenge.id)
            if stored is None or stored.state != done:
                raise ChallengeClosed("this challenge was answered or withdrawn meanwhile")
            answered = stored
        return self._made(answered)

    def _made(self, challenge: Challenge) -> Challenge:
        if challenge.state == "accepted":
            self.games.make(challenge)
        return challenge

    def listing(self, player: Player) -> tuple[list[Challenge], list[Challenge]]:
        """(received and still open, without those from players either side blocked; sent, with their answers)."""
        now = self.now_ms()
        received = [
            challenge
            for challenge in self.repository.received_by(player.player_id)
            if challenge.status(now) == "open"
            and not player.blocked(challenge.sender.player_id)
            and not self._blocked_by_sender(player, challenge)
        ]
        return received, self.repository.sent_by(player.player_id)
