"""The clubs service on the in-memory stores: the 500 members a club (racing joins too), and a place left by a
join cut short is given back by the player's list."""

from __future__ import annotations

import pytest
from clubs.service import Clubs
from common.clubs.domain import MAX_MEMBERS, ClubFull, TooManyClubs, WrongClubCode
from common.clubs.repository import InMemoryClubs
from common.players.domain import Player
from games.ratings.repository import InMemoryRatings

from tests.clubs.test_store_contract import race


def player(number: int) -> Player:
    return Player(f"player{number:05}", "ab" * 32, f"P{number}")


@pytest.fixture
def service() -> Clubs:
    return Clubs(InMemoryClubs(), InMemoryRatings(), lambda: 1_800_000_000.0)


def test_a_club_takes_500_members_and_no_more(service):
    club = service.create(player(0), "Simba", "english")
    answers = race(MAX_MEMBERS + 20, lambda i: _join(service, player(i + 1), club.id, club.code))
    assert answers.count("joined") == MAX_MEMBERS - 1 and answers.count("full") == 21
    assert len(service.club(club.id).member_ids) == MAX_MEMBERS
    late = player(9_999)
    with pytest.raises(ClubFull):
        service.join(late, club.id, club.code)
    assert service.repository.places(late.player_id) == set()  # the refused join holds no place


def _join(service: Clubs, who: Player, club_id: str, code: str) -> str:
    try:
        service.join(who, club_id, code)
    except ClubFull:
        return "full"
    return "joined"


def test_a_wrong_code_takes_no_place(service):
    club = service.create(player(0), "Simba", "chess")
    with pytest.raises(WrongClubCode):
        service.join(player(1), club.id, "ZZZZZZ" if club.code != "ZZZZZZ" else "YYYYYY")
    assert service.repository.places(player(1).player_id) == set()


def test_a_place_held_without_a_membership_comes_back(service):
    clubs = [service.create(player(0), f"Klabu {n}", "all") for n in range(3)]
    asha = player(1)
    service.repository.take_place(asha.player_id, clubs[0].id, 20)  # a join cut short after its first write
    service.join(asha, clubs[1].id, clubs[1].code)
    assert [club.id for club in service.mine(asha)] == [clubs[1].id]
    assert service.repository.places(asha.player_id) == {clubs[1].id}


def test_twenty_racing_creates_and_joins_hold_twenty_places(service):
    owners = [service.create(player(n), f"Klabu {n}", "chess") for n in range(30)]
    asha = player(99)

    def join(index: int) -> str:
        try:
            service.join(asha, owners[index].id, owners[index].code)
        except TooManyClubs:
            return "refused"
        return "joined"

    answers = race(30, join)
    assert answers.count("joined") == 20 and len(service.mine(asha)) == 20
    assert service.repository.places(asha.player_id) == {club.id for club in service.mine(asha)}
