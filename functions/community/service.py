"""The community's actions on a repository and a clock: follow (from a game, or by a player's id from a link or
a profile), unfollow, the follows with friends marked, and feedback. A block overrides everything: neither of
two players who blocked the other can follow the other, and a follow stays out of the list once either blocks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from common.clock import Clocked
from common.players.blocks import is_blocked
from common.players.domain import Player
from common.players.handles import handle_of
from common.players.repository import BLOCKS, PlayerRepository, player_record

from community.domain import (
    FEEDBACK_DAYS,
    MAX_FOLLOWS,
    CannotFollowYourself,
    Card,
    Feedback,
    FeedbackCategory,
    Follow,
    FollowNotFound,
    Friendly,
    PlayerNotFound,
    TooManyFollows,
    YouBlockedPlayer,
)
from community.repository import CommunityRepository


class Opponents(Protocol):
    def opponent(self, game_id: str, token_hash: str) -> Card:
        """The other player of a game the asker holds a seat in, as a card; ``PlayerNotFound`` otherwise."""
        ...

    def card_of(self, player_id: str) -> Card | None:
        """A card for a player who has played a game (from its seat), or None."""
        ...


class PlayerData(Protocol):
    """What other functions keep about a player, read for "Download my data"."""

    def ratings(self, player_id: str) -> list[dict[str, Any]]: ...

    def results(self, player_id: str) -> list[dict[str, Any]]: ...

    def subscriptions(self, player_id: str) -> list[dict[str, Any]]: ...


class Erasure(Protocol):
    """What other parts keep about a player, deleted for "Delete my data" (``community.erasure``)."""

    def games(self, player_id: str) -> int: ...

    def seeks(self, player_id: str) -> None: ...

    def ratings(self, player_id: str) -> None: ...

    def subscriptions(self, player_id: str) -> None: ...

    def clubs(self, player_id: str) -> None: ...

    def rate_limits(self, token_hash: str) -> None: ...

    def player(self, token_hash: str) -> None: ...


class Forgets(Protocol):
    def forget(self, player_id: str) -> int: ...


@dataclass
class Community(Clocked):
    repository: CommunityRepository
    players: PlayerRepository
    clock: Callable[[], float] = time.time

    def introduce(self, player: Player) -> Card:
        """Keep the player's card (its name as it is now), so others can follow them by their id."""
        card = Card(player.player_id, player.token_hash, player.name)
        if self.repository.card(player.player_id) != card:
            self.repository.save_card(card)
        return card

    def follow(self, player: Player, player_id: str, opponents: Opponents | None = None) -> tuple[Follow, bool]:
        """Follow the player with this id (their card, or else one made from their newest game); (the follow,
        whether it is new)."""
        card = self.repository.card(player_id)
        if card is None and opponents is not None and player_id != player.player_id:
            card = opponents.card_of(player_id)
            if card is not None:
                self.repository.save_card(card)
        if card is None:
            raise PlayerNotFound("no player with this id has a community card")
        return self._follow(player, card)

    def follow_opponent(self, player: Player, game_id: str, opponents: Opponents) -> tuple[Follow, bool]:
        card = opponents.opponent(game_id, player.token_hash)
        self.repository.save_card(card)
        return self._follow(player, card)

    def _follow(self, player: Player, card: Card) -> tuple[Follow, bool]:
        if card.player_id == player.player_id:
            raise CannotFollowYourself("a player cannot follow themselves")
        if player.blocked(card.player_id):
            raise YouBlockedPlayer("you blocked this player: remove the block first")
        if is_blocked(self.players, player.player_id, card.token_hash):
            raise PlayerNotFound("no player with this id has a community card")  # a block is never told
        mine = {follow.player_id: follow for follow in self.repository.follows(player.player_id)}
        if card.player_id in mine:
            return mine[card.player_id], False
        if len(mine) >= MAX_FOLLOWS:
            raise TooManyFollows(f"a player follows at most {MAX_FOLLOWS} players; unfollow one first")
        follow = Follow(card.player_id, card.name, self.now_ms())
        new = self.repository.add_follow(player.player_id, follow)
        return follow, new

    def unfollow(self, player: Player, player_id: str) -> None:
        if not self.repository.remove_follow(player.player_id, player_id):
            raise FollowNotFound("you do not follow this player")

    def follows(self, player: Player) -> list[Friendly]:
        """The player's follows, oldest first, without the players they blocked; a friend follows back and has not
        blocked them (read for the friends alone: two reads each, so a list costs two Queries and two reads a
        friend, whatever the number of follows)."""
        followers = self.repository.followers(player.player_id)
        shown = []
        for follow in self.repository.follows(player.player_id):
            if player.blocked(follow.player_id):
                continue
            friend = follow.player_id in followers
            if friend:
                card = self.repository.card(follow.player_id)
                if card is not None and is_blocked(self.players, player.player_id, card.token_hash):
                    continue  # they blocked this player: no friend, and no follow shown either
                follow = Follow(follow.player_id, card.name if card else follow.name, follow.since)
            shown.append(Friendly(follow, friend))
        return shown

    def send_feedback(self, category: FeedbackCategory, text: str, lang: str) -> Feedback:
        """Keep a piece of feedback, tied to no player, for ``FEEDBACK_DAYS`` days."""
        feedback = Feedback(category, text.strip(), lang, self.now_ms())
        self.repository.add_feedback(feedback, feedback.at // 1000 + FEEDBACK_DAYS * 86_400)
        return feedback

    def export(self, player: Player, elsewhere: PlayerData) -> dict[str, Any]:
        """Everything stored about the player, as JSON values: their item of the players table (without the
        token's hash), their card, follows and followers, game ratings and push subscriptions."""
        stored = {key: value for key, value in player_record(player).items() if key != "token_hash"}
        if stored.get(BLOCKS):  # the blocked players as the API shows them: their handles (common.players.handles)
            stored[BLOCKS] = {
                key: {**block, "player_id": handle_of(block["player_id"])} for key, block in stored[BLOCKS].items()
            }
        card = self.repository.card(player.player_id)
        return {
            "player": stored,
            "card": None if card is None else {"name": card.name},
            "follows": [
                {"player_id": handle_of(f.player_id), "name": f.name, "since": f.since}
                for f in self.repository.follows(player.player_id)
            ],
            "followers": sorted(handle_of(follower) for follower in self.repository.followers(player.player_id)),
            "ratings": elsewhere.ratings(player.player_id),
            "results": elsewhere.results(player.player_id),
            "push_subscriptions": elsewhere.subscriptions(player.player_id),
        }

    def delete(self, player: Player, elsewhere: Erasure, challenges: Forgets) -> None:
        """Delete my data: the player's follows (and their mirrors), the follows of them, their card and
        challenges; their games keep their moves as "a former player"; ratings, push subscriptions, clubs
        (owned: closed; joined: left) and rate-limit buckets go; the player's item goes last, so a delete cut
        short can be sent again with the same token. Feedback is tied to no player: nothing to find."""
        me = player.player_id
        for follow in self.repository.follows(me):
            self.repository.remove_follow(me, follow.player_id)
        for follower in self.repository.followers(me):
            self.repository.remove_follow(follower, me)
        self.repository.remove_card(me)
        challenges.forget(me)
        elsewhere.games(me)
        elsewhere.seeks(me)
        elsewhere.ratings(me)
        elsewhere.subscriptions(me)
        elsewhere.clubs(me)
        elsewhere.rate_limits(player.token_hash)
        elsewhere.player(player.token_hash)
