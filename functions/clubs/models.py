"""The clubs routes' requests and answers (also their OpenAPI description)."""

from __future__ import annotations

from typing import Literal

from common.clubs.domain import CODE_PATTERN, MAX_CLUBS, MAX_MEMBERS, Club, ClubGame, ClubPage, Member
from common.players.handles import PublicId
from pydantic import BaseModel, ConfigDict, Field

from clubs.service import BoardRow


class ClubRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=60, description="The club's name (the rules of a player's name).")
    game: ClubGame = Field(description="The club's game, or `all` for the three.")


class ClubJoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    code: str = Field(pattern=CODE_PATTERN, description="The club's code: the part of its invite after the dash.")


class ClubMemberView(BaseModel):
    player_id: PublicId
    name: str | None
    joined: int = Field(description="When they joined (epoch ms).")


class ClubBoardRow(BaseModel):
    player_id: PublicId
    name: str | None
    rating: int
    provisional: bool = Field(description="Shown as `1500?`: the rating is still uncertain.")
    games: int

    @classmethod
    def of(cls, row: BoardRow) -> ClubBoardRow:
        rating = row.rating
        name = row.member.name
        return cls(
            player_id=row.member.player_id,
            name=name,
            rating=round(rating.rating.rating),
            provisional=rating.provisional,
            games=rating.games,
        )


class ClubTournamentLink(BaseModel):
    id: str
    name: str | None
    game: str
    format: str
    created: int


class ClubView(BaseModel):
    id: str
    name: str
    game: ClubGame
    owner: PublicId = Field(description="The owner's public handle.")
    members_count: int = Field(description=f"At most {MAX_MEMBERS}.")
    member: bool = Field(description="You are in the club.")
    owner_is_you: bool
    invite: str | None = Field(
        description="`<id>-<code>`, what a friend types or the link carries (members only); null for others."
    )
    members: list[ClubMemberView] = Field(description="The owner, then oldest first (members only; empty for others).")
    boards: dict[str, list[ClubBoardRow]] = Field(
        description="Per game of the club, its members with a rating in it, best first (members only)."
    )
    tournaments: list[ClubTournamentLink] = Field(description="Tournaments for the club's members, newest first.")

    @classmethod
    def of(cls, page: ClubPage, you: str | None, boards: dict[str, list[BoardRow]] | None) -> ClubView:
        club = page.club
        member = you is not None and you in club.member_ids
        return cls(
            id=club.id,
            name=club.name,
            game=club.game,
            owner=club.owner,
            members_count=len(club.member_ids),
            member=member,
            owner_is_you=you == club.owner,
            invite=club.invite if member else None,
            members=[ClubMemberView(player_id=m.player_id, name=m.name, joined=m.joined) for m in owner_first(page)]
            if member
            else [],
            boards={game: [ClubBoardRow.of(row) for row in rows] for game, rows in (boards or {}).items()},
            tournaments=[
                ClubTournamentLink(id=t.tournament_id, name=t.name, game=t.game, format=t.format, created=t.created)
                for t in page.tournaments
            ]
            if member
            else [],
        )


def owner_first(page: ClubPage) -> list[Member]:
    return sorted(page.members, key=lambda member: member.player_id != page.club.owner)


class ClubSummary(BaseModel):
    id: str
    name: str
    game: ClubGame
    members_count: int
    owner_is_you: bool

    @classmethod
    def of(cls, club: Club, you: str) -> ClubSummary:
        return cls(
            id=club.id,
            name=club.name,
            game=club.game,
            members_count=len(club.member_ids),
            owner_is_you=you == club.owner,
        )


class ClubList(BaseModel):
    clubs: list[ClubSummary] = Field(description=f"Your clubs, oldest first (at most {MAX_CLUBS}).")


class ClubLeft(BaseModel):
    left: Literal[True] = True
    closed: bool = Field(description="The owner left as the last member: the club is closed.")


class MemberRemoved(BaseModel):
    removed: Literal[True] = True
