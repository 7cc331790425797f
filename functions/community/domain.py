"""The community's values and refusals: follows (friends are two players who follow each other) and feedback.
Plain types, no HTTP (``common.web.errors`` maps the codes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from common.errors import DomainError

#: A player follows at most this many players (a page of follows is one Query of small items).
MAX_FOLLOWS = 500
#: Feedback: at most this many characters, kept this long (DynamoDB's TTL deletes it), never tied to a player.
MAX_FEEDBACK_CHARS = 1_000
FEEDBACK_DAYS = 180
FeedbackCategory = Literal["bug", "idea", "words", "fair_play", "other"]
FEEDBACK_CATEGORIES: tuple[FeedbackCategory, ...] = ("bug", "idea", "words", "fair_play", "other")


class PlayerNotFound(DomainError, code="player_not_found"):
    """No such player to follow (or one who blocked the asker: a block is never told)."""


class FollowNotFound(DomainError, code="follow_not_found"): ...


class TooManyFollows(DomainError, code="too_many_players_followed"): ...


class CannotFollowYourself(DomainError, code="cannot_follow_yourself"): ...


class YouBlockedPlayer(DomainError, code="you_blocked_player"):
    """The asker blocked the player they try to follow: a block overrides a follow."""


@dataclass(frozen=True)
class Card:
    """What the community knows of a player it may be asked to follow: the public id, the name, and the token's
    hash (only to read that player's blocks; never answered)."""

    player_id: str
    token_hash: str
    name: str | None


@dataclass(frozen=True)
class Follow:
    player_id: str  # the player followed
    name: str | None
    since: int  # epoch ms


@dataclass(frozen=True)
class Friendly:
    """One of a player's follows, and whether it is a friend (they follow back)."""

    follow: Follow
    friend: bool


@dataclass(frozen=True)
class Feedback:
    category: FeedbackCategory
    text: str
    lang: str
    at: int  # epoch ms
