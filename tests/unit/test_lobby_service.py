"""The lobby's service on the in-memory repositories (seeks and games) and a clock the tests move."""

from __future__ import annotations

import pytest
from common.players.service import Player, hash_token
from games.domain.errors import InvalidGameOption
from games.lobby.domain import (
    MAX_OPEN_SEEKS,
    PAGE_SIZE,
    SEEK_LIFETIME_MS,
    InvalidRatingRange,
    InvalidSeekCursor,
    NotYourSeek,
    OutOfRange,
    OwnSeek,
    Rating,
    SeekNotFound,
    SeekTaken,
    TooManySeeks,
)
from games.lobby.repository import InMemorySeeks
from games.lobby.seated import SeekGames
from games.lobby.service import SeekService
from games.repository import InMemoryGameStore, in_memory_games
from games.service import GamesService

from shared_rules import RulesError
from tests.checks import known
from tests.clocks import ManualClock


class Ratings:
    """A ``RatingsReader`` over a dict: (player id, game) -> rating; the start rating for the others."""

    def __init__(self) -> None:
        self.known: dict[tuple[str, str], Rating] = {}
        self.reads = 0

    def rating(self, player_id: str, game: str) -> Rating:
        self.reads += 1
        return self.known.get((player_id, game), Rating(1500, True))

    def ratings(self, player_ids: list[str], game: str) -> dict[str, Rating]:
        self.reads += 1
        return {player_id: self.known[(player_id, game)] for player_id in player_ids if (player_id, game) in self.known}


def player(name: str) -> Player:
    token = "ubao_" + (name * 43)[:43]
    return Player(player_id=f"id-{name}", token_hash=hash_token(token), name=name)


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def records():
    """The games' records: the seeks are games waiting for their players."""
    return InMemoryGameStore()


@pytest.fixture
def seeks(records):
    return InMemorySeeks(records)


@pytest.fixture
def games(clock, records):
    return GamesService(in_memory_games(records), clock=clock)


@pytest.fixture
def ratings():
    return Ratings()


@pytest.fixture
def lobby(seeks, games, clock, ratings):
    return SeekService(seeks, SeekGames(games), clock=clock, ratings=ratings)


def test_an_accepted_seek_makes_a_game_with_both_seats_and_leaves_the_list(lobby, games):
    asha, baraka = player("a"), player("b")
    seek = lobby.offer(asha, "tanzanian", True, {"days_per_move": 2}, "black", None)
    assert [s.id for s in lobby.open_seeks("tanzanian", None)[0]] == [seek.id]
    accepted = lobby.accept(baraka, seek.id)
    assert accepted.created and accepted.seat == "white"
    head = games.log.load(accepted.head.id).head
    assert head.state == "active" and head.options["days_per_move"] == 2 and head.options["rated"] is True
    assert head.seat("black").player_id == asha.player_id and head.seat("white").player_id == baraka.player_id
    assert lobby.open_seeks("tanzanian", None) == ([], None)
    assert lobby.seek(seek.id).game_id == head.id


def test_a_retried_accept_answers_the_same_game_and_others_are_refused(lobby, ratings):
    seek = lobby.offer(player("a"), "chess", False, {}, None, None)
    reads = ratings.reads
    first = lobby.accept(player("b"), seek.id)
    assert ratings.reads == reads  # a seek without a range reads no rating of its taker
    again = lobby.accept(player("b"), seek.id)
    assert (again.head.id, again.seat, again.created) == (first.head.id, first.seat, False)
    with pytest.raises(SeekTaken):
        lobby.accept(player("c"), seek.id)
    with pytest.raises(SeekTaken):  # too late to withdraw it
        lobby.withdraw(player("a"), seek.id)


def test_colours_unasked_are_drawn_and_both_come_up(lobby):
    seats = {lobby.accept(player("b"), lobby.offer(player("a"), "english", False, {}, None, None).id).seat}
    for _ in range(30):
        seek = lobby.offer(player("a"), "english", False, {}, None, None)
        seats.add(lobby.accept(player("b"), seek.id).seat)
        if len(seats) == 2:
            break
    assert seats == {"white", "black"}


def test_refusals_own_seek_range_and_withdrawn(lobby, ratings):
    asha = player("a")
    ratings.known[("id-a", "chess")] = Rating(1700, False)
    for steered in ((1500, 1500), (0, 0), (1650, 1900), (1601, 1800), (1600, 1799)):  # fair play: ±100 at least
        with pytest.raises(InvalidRatingRange):
            lobby.offer(asha, "chess", True, {}, "white", steered)
    ranged = lobby.offer(asha, "chess", True, {}, "white", (1600, 1800))
    assert ranged.seeker.rating == Rating(1700, False)  # what the list shows
    ratings.known[("id-a", "chess")] = Rating(1690, False)
    assert lobby.open_seeks("chess", None)[0][0].seeker.rating == Rating(1690, False)  # as it is now
    with pytest.raises(OwnSeek):
        lobby.accept(asha, ranged.id)
    with pytest.raises(OutOfRange):
        lobby.accept(player("b"), ranged.id)  # 1500, provisional: below the range
    ratings.known[("id-c", "chess")] = Rating(1712, False)
    assert lobby.accept(player("c"), ranged.id).seat == "black"
    other = lobby.offer(asha, "chess", True, {}, None, None)
    with pytest.raises(NotYourSeek):
        lobby.withdraw(player("b"), other.id)
    lobby.withdraw(asha, other.id)
    with pytest.raises(SeekNotFound):
        lobby.accept(player("b"), other.id)
    with pytest.raises(SeekNotFound):
        lobby.seek(other.id)


def test_at_most_three_open_seeks_and_a_taken_one_frees_its_place(lobby):
    asha = player("a")
    made = [lobby.offer(asha, "chess", False, {}, None, None) for _ in range(MAX_OPEN_SEEKS)]
    with pytest.raises(TooManySeeks):
        lobby.offer(asha, "english", False, {}, None, None)
    lobby.accept(player("b"), made[0].id)
    lobby.offer(asha, "english", False, {}, None, None)
    with pytest.raises(TooManySeeks):
        lobby.offer(asha, "english", False, {}, None, None)


def test_an_expired_seek_is_neither_listed_nor_accepted_nor_counted(lobby, clock):
    asha = player("a")
    seek = lobby.offer(asha, "chess", False, {}, None, None)
    for _ in range(MAX_OPEN_SEEKS - 1):
        lobby.offer(asha, "chess", False, {}, None, None)
    clock.now += SEEK_LIFETIME_MS / 1000 - 1
    assert len(lobby.open_seeks("chess", None)[0]) == MAX_OPEN_SEEKS  # a second before it lapses
    clock.now += 1
    assert lobby.open_seeks("chess", None) == ([], None)
    with pytest.raises(SeekNotFound):
        lobby.accept(player("b"), seek.id)
    with pytest.raises(SeekNotFound):
        lobby.seek(seek.id)
    lobby.offer(asha, "chess", False, {}, None, None)  # its place is free again


def test_bad_options_are_refused_as_game_creation_refuses_them_and_nothing_is_stored(lobby, seeks, records):
    for options in ({"days_per_move": 30}, {"swap_colors": 1}, {"no_such_option": True}):
        with pytest.raises((InvalidGameOption, RulesError)) as refused:
            lobby.offer(player("a"), "english", False, options, None, None)
        error = refused.value
        assert isinstance(error, (InvalidGameOption, RulesError)) and error.code == "invalid_option"
    assert seeks.slots == {} and records.heads == {} and records.events == {}


def test_pages_newest_first_with_an_opaque_cursor(lobby, clock):
    made = []
    for index in range(PAGE_SIZE + 5):
        clock.now += 1
        made.append(lobby.offer(player(chr(ord("a") + index % 26) + str(index)), "chess", False, {}, None, None).id)
    first, cursor = lobby.open_seeks("chess", None)
    second, end = lobby.open_seeks("chess", cursor)
    assert [s.id for s in first + second] == made[::-1] and end is None and cursor is not None
    with pytest.raises(InvalidSeekCursor):
        lobby.open_seeks("chess", "bm90IGEgY3Vyc29y")
    assert lobby.open_seeks("english", None) == ([], None)


def test_a_seeks_game_reads_back_from_its_records_and_is_taken_or_withdrawn_once(lobby, records):
    from dataclasses import replace

    from games.domain import Created, SeekAccepted, SeekWithdrawn, apply
    from games.repository.codec import event_from, event_record, head_from, head_record

    seek = lobby.offer(player("a"), "chess", True, {}, None, (1400, 1600))
    [first] = records.events[seek.id].values()
    created = event_from(first)
    assert isinstance(created, Created) and created.seek is not None
    head = apply(None, created)
    assert event_from(event_record(created)) == created and head_from(head_record(head)) == head
    assert head_record(head)["seek_game"] == "chess" and head.white is None and head.black is None
    taken = SeekAccepted(seq=2, at=head.created + 1, by="white", seat=replace(created.seek.seeker, player_id="id-b"))
    assert event_from(event_record(taken)) == taken
    started = apply(head, taken)
    assert started.state == "active" and started.black == created.seek.seeker and started.deadline is not None
    assert "seek_game" not in head_record(started) and head_from(head_record(started)) == started
    withdrawn = apply(head, SeekWithdrawn(seq=2, at=head.created + 1))
    assert withdrawn.state == "waiting" and known(withdrawn.seek).state == "cancelled"
    assert "seek_game" not in head_record(withdrawn)
    for done in (started, withdrawn):  # taken or withdrawn, a seek changes no more
        for event in (replace(taken, seq=3), SeekWithdrawn(seq=3, at=head.created + 2)):
            with pytest.raises(ValueError):
                apply(done, event)


def test_a_seek_is_no_game_to_read_until_it_is_taken(lobby, games):
    from games.domain.errors import GameNotFound

    seek = lobby.offer(player("a"), "english", False, {}, "white", None)
    with pytest.raises(GameNotFound):
        games.get(seek.id)
    lobby.accept(player("b"), seek.id)
    head, _, _ = games.get(seek.id)
    assert head.state == "active" and head.white.player_id == "id-a"
