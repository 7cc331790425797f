"""What a rated game's end changes in its two players' game ratings (``games.ratings`` computes it): fixed once,
by the event that ends the game, so every later reader (and every retry applying it) sees the same numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared_rules.names import Colour as Color


@dataclass(frozen=True)
class SideChange:
    """One player's change: the rating and its deviation move by these amounts; the volatility becomes this.
    ``earned``: the opponent's rating was established (not provisional) when the game ended and the opponent
    played their side themselves, so the game counts toward the rating list's distinct opponents (a change
    stored before this was kept reads False: such a game never counted)."""

    rating: float
    rd: float
    volatility: float
    earned: bool = False

    def record(self) -> dict[str, float | bool]:
        return {"rating": self.rating, "rd": self.rd, "vol": self.volatility, "earned": self.earned}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> SideChange:
        earned = bool(record.get("earned", False))
        return cls(float(record["rating"]), float(record["rd"]), float(record["vol"]), earned)


@dataclass(frozen=True)
class RatingChange:
    white: SideChange
    black: SideChange

    def side(self, color: Color) -> SideChange:
        return self.white if color == "white" else self.black

    def record(self) -> dict[str, dict[str, float | bool]]:
        return {"white": self.white.record(), "black": self.black.record()}

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | None) -> RatingChange | None:
        if not record:
            return None
        return cls(SideChange.from_record(record["white"]), SideChange.from_record(record["black"]))

    def shown(self) -> dict[str, int]:
        """The change as players see it: whole points (``+11``, ``-11``)."""
        return {"white": round(self.white.rating), "black": round(self.black.rating)}
