"""The clubs' actions on a ``ClubRepository``, the game ratings and a clock: make a club, read it (its members'
leaderboards for members), join by code, leave, and the owner's removal of a member and renewal of the code.

The limits hold under races because each is one conditional write on the set it bounds
(``common.clubs.repository``); the reads before them only answer the common refusals without writing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from common.clock import Clocked
from common.clubs.domain import (
    MAX_CLUBS,
    MAX_MEMBERS,
    Club,
    ClubFull,
    ClubGame,
    ClubNotFound,
    ClubPage,
    Member,
    NotClubMember,
    NotClubOwner,
    OwnerStaysInClub,
    TooManyClubs,
    WrongClubCode,
    games_of,
    is_club_id,
    new_code,
    new_id,
)
from common.clubs.repository import ClubRepository
from common.players.domain import InvalidName, Player
from common.players.names import clean_name
from games.ratings.domain import GameRating
from games.ratings.repository import RatingRepository

#: Tries at a fresh club id (31⁶ of them: a clash is rare, two in a row rarer still).
ID_TRIES = 5


@dataclass(frozen=True)
class BoardRow:
    member: Member
    rating: GameRating


@dataclass
class Clubs(Clocked):
    repository: ClubRepository
    ratings: RatingRepository
    clock: Callable[[], float] = time.time

    def create(self, player: Player, name: str, game: ClubGame) -> Club:
        cleaned = clean_name(name)
        if cleaned is None:
            raise InvalidName("a club needs a name")
        owner = Member(player.player_id, player.name, self.now_ms())
        for _ in range(ID_TRIES):
            club = Club(new_id(), cleaned, game, player.player_id, new_code(), owner.joined)
            if not self.repository.take_place(player.player_id, club.id, MAX_CLUBS):
                raise TooManyClubs(f"a player is in at most {MAX_CLUBS} clubs; leave one first")
            if self.repository.create(club, owner):
                return Club(
                    club.id, club.name, club.game, club.owner, club.code, club.created, frozenset({owner.player_id})
                )
            self.repository.give_place(player.player_id, club.id)
        raise RuntimeError("no free club id after several tries")

    def club(self, club_id: str) -> Club:
        club = self.repository.club(club_id) if is_club_id(club_id) else None
        if club is None:
            raise ClubNotFound("no club has this id")
        return club

    def page(self, club_id: str) -> ClubPage:
        page = self.repository.page(club_id) if is_club_id(club_id) else None
        if page is None:
            raise ClubNotFound("no club has this id")
        return page

    def boards(self, page: ClubPage) -> dict[str, list[BoardRow]]:
        """Per game of the club, its members with a rating in it, best first (a batch read per 100 members)."""
        members = {member.player_id: member for member in page.members}
        now = self.now_ms()
        boards: dict[str, list[BoardRow]] = {}
        for game in games_of(page.club.game):
            found = self.ratings.get_many(list(members), game)
            rows = [BoardRow(members[player_id], rating.at(now)) for player_id, rating in found.items()]
            boards[game] = sorted(rows, key=lambda row: (-row.rating.rating.rating, row.member.player_id))
        return boards

    def join(self, player: Player, club_id: str, code: str) -> tuple[Club, bool]:
        """Join with the club's code; (the club, whether the player joined now)."""
        club = self.club(club_id)
        if player.player_id in club.member_ids:
            return club, False
        if code != club.code:
            raise WrongClubCode("this code does not open the club (the owner may have renewed it)")
        if len(club.member_ids) >= MAX_MEMBERS:
            raise ClubFull(f"the club has {MAX_MEMBERS} members")
        self._take_place(player, club.id)
        member = Member(player.player_id, player.name, self.now_ms())
        added = self.repository.add_member(club.id, code, member, MAX_MEMBERS)
        if added is None:
            self.repository.give_place(player.player_id, club.id)
            self._why_refused(club.id, code)
        if not self.repository.take_place(player.player_id, club.id, MAX_CLUBS):
            self.repository.remove_member(club.id, player.player_id)  # a listing gave the place away meanwhile
            raise TooManyClubs(f"a player is in at most {MAX_CLUBS} clubs; leave one first")
        return self.club(club.id), bool(added)

    def _take_place(self, player: Player, club_id: str) -> None:
        if not self.repository.take_place(player.player_id, club_id, MAX_CLUBS):
            raise TooManyClubs(f"a player is in at most {MAX_CLUBS} clubs; leave one first")

    def _why_refused(self, club_id: str, code: str) -> None:
        club = self.club(club_id)
        if club.code != code:
            raise WrongClubCode("this code does not open the club (the owner may have renewed it)")
        raise ClubFull(f"the club has {MAX_MEMBERS} members")

    def leave(self, player: Player, club_id: str) -> bool:
        """Leave the club; the owner leaves only a club with no other member, which closes it (True)."""
        club = self.club(club_id)
        if player.player_id not in club.member_ids:
            raise NotClubMember("you are not in this club")
        if club.owner == player.player_id:
            if len(club.member_ids) > 1 or not self.repository.delete(club.id, player.player_id):
                raise OwnerStaysInClub("the owner leaves only when no other member is left: remove them first")
            self.repository.give_place(player.player_id, club.id)
            return True
        self.repository.remove_member(club.id, player.player_id)
        self.repository.give_place(player.player_id, club.id)
        return False

    def remove(self, owner: Player, club_id: str, player_id: str) -> None:
        club = self._owned(owner, club_id)
        if player_id == club.owner:
            raise OwnerStaysInClub("the owner cannot be removed")
        if not self.repository.remove_member(club.id, player_id):
            raise NotClubMember("that player is not in this club")
        self.repository.give_place(player_id, club.id)

    def renew_code(self, owner: Player, club_id: str) -> Club:
        club = self._owned(owner, club_id)
        if not self.repository.renew_code(club.id, owner.player_id, new_code()):
            raise NotClubOwner("only the club's owner renews its code")
        return self.club(club.id)

    def _owned(self, player: Player, club_id: str) -> Club:
        club = self.club(club_id)
        if club.owner != player.player_id:
            raise NotClubOwner("only the club's owner does this")
        return club

    def mine(self, player: Player) -> list[Club]:
        """The player's clubs, oldest first; a place held for a club that does not list them (a join or a leave
        cut short) is given back."""
        places = self.repository.places(player.player_id)
        clubs = [club for club in self.repository.clubs(sorted(places)) if player.player_id in club.member_ids]
        for stale in places - {club.id for club in clubs}:
            self.repository.give_place(player.player_id, stale)
        return sorted(clubs, key=lambda club: (club.created, club.id))

    def is_member(self, club_id: str, player_id: str) -> bool:
        club = self.repository.club(club_id) if is_club_id(club_id) else None
        return club is not None and player_id in club.member_ids
