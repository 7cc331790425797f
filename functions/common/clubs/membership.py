"""What the tournaments ask of a club: is this player in it (a members-only tournament is made and joined by its
members only), and the tournament listed on the club's page."""

from __future__ import annotations

from common.clubs.domain import Club, ClubMembersOnly, ClubNotFound, ClubTournament, is_club_id
from common.clubs.repository import ClubRepository


def club_of_member(clubs: ClubRepository | None, club_id: str, player_id: str) -> Club:
    """The club, if ``player_id`` is one of its members; ``ClubNotFound`` or ``ClubMembersOnly`` otherwise."""
    club = clubs.club(club_id) if clubs is not None and is_club_id(club_id) else None
    if club is None:
        raise ClubNotFound("no club has this id")
    if player_id not in club.member_ids:
        raise ClubMembersOnly("this is for the club's members: join the club first")
    return club


def list_in_club(clubs: ClubRepository | None, club_id: str, tournament: ClubTournament) -> None:
    if clubs is not None:
        clubs.add_tournament(club_id, tournament)
