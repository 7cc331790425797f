"""A direct challenge's values and refusals: an offer from one friend to another, open until it is answered,
withdrawn or lapses (``CHALLENGE_HOURS``). Plain types, no HTTP (``common.web.errors`` maps the codes)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from common.errors import DomainError

#: An open challenge lapses after this long (as a rematch offer waits for an answer, but not for ever).
CHALLENGE_HOURS = 24
#: A player has at most this many challenges out at once (one per friend).
MAX_OPEN_CHALLENGES = 20
#: Answered and lapsed challenges stay listed this long (the challenger learns the answer), then TTL deletes them.
KEPT_HOURS = 48

ChallengeState = Literal["open", "accepted", "declined", "withdrawn"]
ChallengeAction = Literal["accept", "decline", "withdraw"]
ColorChoice = Literal["white", "black", "random"]


class NotAFriend(DomainError, code="not_a_friend"):
    """A direct challenge goes to a friend only (two players who follow each other); a block reads the same."""


class ChallengeNotFound(DomainError, code="challenge_not_found"): ...


class ChallengeClosed(DomainError, code="challenge_closed"):
    """The challenge was answered, withdrawn or lapsed: nothing more can be done with it."""


class TooManyChallenges(DomainError, code="too_many_challenges"): ...


class AlreadyChallenged(DomainError, code="already_challenged"):
    """One open challenge at a time from a player to a friend."""


@dataclass(frozen=True)
class Challenger:
    """One side of a challenge: the public id, the name, and the token's hash (the game's seat; never answered)."""

    player_id: str
    name: str | None
    token_hash: str


@dataclass(frozen=True)
class Challenge:
    id: str
    sender: Challenger
    receiver: Challenger
    game: str
    options: Mapping[str, Any]
    rated: bool
    color: ColorChoice  # the sender's seat as asked
    at: int  # epoch ms
    state: ChallengeState = "open"
    game_id: str | None = None  # the game made when it was accepted
    answered: int | None = None

    @property
    def lapses(self) -> int:
        return self.at + CHALLENGE_HOURS * 3_600_000

    def lapsed(self, now_ms: int) -> bool:
        return self.state == "open" and now_ms >= self.lapses

    def status(self, now_ms: int) -> str:
        """What a list shows: the state, or ``lapsed`` for an open one past its time."""
        return "lapsed" if self.lapsed(now_ms) else self.state

    def answer(self, action: ChallengeAction, game_id: str | None, now_ms: int) -> Challenge:
        states: dict[ChallengeAction, ChallengeState] = {
            "accept": "accepted",
            "decline": "declined",
            "withdraw": "withdrawn",
        }
        return replace(self, state=states[action], game_id=game_id, answered=now_ms)

    def expires(self) -> int:
        """DynamoDB's TTL (epoch s): a while after it lapses, so an answer stays readable for the challenger."""
        return self.lapses // 1000 + KEPT_HOURS * 3_600
